import Foundation
import Testing
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// The op records: one for every op of protocol v1, exactly `route`, `reload` and `end` for
/// admins and the eight controls for the session's user, each control op reading its own
/// control (nothing unmatched becomes `cancel`), and docs/protocol.md's op table written from
/// them.
@Suite struct OpTableTests {
  @Test func everyProtocolOpHasOneRecord() {
    let protocolOps = [
      "hello", "animators", "routes", "route", "begin", "subscribe", "unsubscribe", "resync",
      "display", "presented", "frame", "clock", "update", "pause", "resume", "reverse", "seek",
      "finish", "cancel", "release", "end",
      "sessions", "stats", "reload",
    ]
    #expect(Set(Op.allCases.map(\.rawValue)) == Set(protocolOps))
    #expect(OpRecord.all.map(\.op.rawValue).sorted() == protocolOps.sorted())
    #expect(OpRecord.table.count == Op.allCases.count)
    #expect(Op(rawValue: "Hello") == nil)
    #expect(throws: WireError.self) { try OpRecord.named("Hello") }
  }

  @Test func onlyRouteReloadAndEndAreAdminOps() {
    let admin = Set(OpRecord.all.filter { $0.access == .admin }.map(\.op))
    #expect(admin == [.route, .reload, .end])
    let sessionUser = OpRecord.all.filter { $0.access == .sessionUserOrAdmin }.map(\.op)
    #expect(
      sessionUser == [.update, .pause, .resume, .reverse, .seek, .finish, .cancel, .release])
    #expect(sessionUser.allSatisfy { OpRecord.table[$0]?.members.first == "session" })
  }

  /// Each control op's handler, run on a core with no session, reads its own control before
  /// it looks the session up: a control that does not parse is `bad_request`, one that does
  /// reaches `unknown_session`.
  @Test func eachControlOpDecodesToItsOwnControl() throws {
    let controls: [Op: SessionControl] = [
      .update: .update(progress: 0.5), .seek: .seek(progress: 0.5), .pause: .pause,
      .resume: .resume, .reverse: .reverse, .finish: .finish(velocity: nil),
      .cancel: .cancel(velocity: nil), .release: .release(touchVelocity: .zero),
    ]
    for (op, control) in controls {
      #expect(control.op == op)
    }
    let harness = CoreHarness()
    let peer = harness.connect()
    for op in controls.keys {
      let progress = op == .update || op == .seek ? #","progress":0.5"# : ""
      let reply = harness.reply(#"{"op":"\#(op.rawValue)","session":"s9"\#(progress)}"#, from: peer)
      #expect(reply.errorCode == "unknown_session", "\(op)")
    }
    let seek = harness.reply(#"{"op":"seek","session":"s9"}"#, from: peer)
    #expect(seek.errorCode == "bad_request")
  }

  @Test func updateReadsProgressTouchOrBoth() throws {
    func control(_ line: String) throws -> SessionControl {
      try SessionControl.update(reading: try Request(line: Array(line.utf8)))
    }
    #expect(try control(#"{"op":"update","progress":0.25}"#) == .update(progress: 0.25))
    #expect(
      try control(#"{"op":"update","touch":[1,2]}"#)
        == .update(progress: nil, touch: Point(x: 1, y: 2)))
    #expect(throws: WireError.self) { try control(#"{"op":"update"}"#) }
  }

  /// docs/protocol.md's table under "Ops" is the records' table, row for row.
  @Test func theProtocolDocumentsOpTableIsTheRecords() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
    let section = try #require(text.range(of: "## Ops\n"))
    let tableStart = try #require(
      text.range(of: "| op |", range: section.upperBound..<text.endIndex))
    let tableEnd =
      text.range(of: "\n\n", range: tableStart.lowerBound..<text.endIndex)?.lowerBound
      ?? text.endIndex
    let documented = String(text[tableStart.lowerBound..<tableEnd])
    #expect(
      documented == OpRecord.markdownTable,
      "docs/protocol.md's op table should read:\n\(OpRecord.markdownTable)")
  }

  @Test func daemonChosenSessionIDsCount() {
    let table = SessionTable()
    #expect(table.makeID() == "s1")
    #expect(table.makeID() == "s2")
    #expect(table.count == 0)
    #expect(table.all.isEmpty)
  }
}
