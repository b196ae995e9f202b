import Testing
import TransitionWire

@testable import TransitionServer

/// The op table: every op of protocol v1 is known, exactly `route`, `reload` and `end` are
/// admin ops, and each control op decodes to its own control (nothing unmatched becomes
/// `cancel`).
@Suite struct OpTableTests {
  @Test func everyProtocolOpIsKnown() {
    let protocolOps = [
      "hello", "animators", "routes", "route", "begin", "subscribe", "unsubscribe", "resync",
      "update",
      "pause", "resume", "reverse", "seek", "finish", "cancel", "end", "sessions", "stats",
      "reload",
    ]
    #expect(Set(Op.allCases.map(\.rawValue)) == Set(protocolOps))
    #expect(Op(rawValue: "Hello") == nil)
  }

  @Test func onlyRouteReloadAndEndAreAdminOps() {
    let admin = Set(Op.allCases.filter(\.isAdmin).map(\.rawValue))
    #expect(admin == ["route", "reload", "end"])
  }

  @Test func eachControlOpDecodesToItsOwnControl() throws {
    let controls: [Op: SessionControl] = [
      .update: .update(progress: 0.5), .seek: .seek(progress: 0.5), .pause: .pause,
      .resume: .resume, .reverse: .reverse, .finish: .finish(velocity: nil),
      .cancel: .cancel(velocity: nil),
    ]
    for (op, control) in controls {
      let progress = op == .update || op == .seek ? #","progress":0.5"# : ""
      let line = #"{"op":"\#(op.rawValue)","session":"s1"\#(progress)}"#
      let request = try Request(line: Array(line.utf8))
      let command = try Command(op, request, defaultFps: 60)
      #expect(command == .control(session: "s1", control), "\(op)")
      #expect(control.op == op)
    }
  }

  @Test func daemonChosenSessionIDsCount() {
    let table = SessionTable()
    #expect(table.makeID() == "s1")
    #expect(table.makeID() == "s2")
    #expect(table.count == 0)
    #expect(table.all.isEmpty)
  }
}
