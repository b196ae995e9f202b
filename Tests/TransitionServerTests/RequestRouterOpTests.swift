import Testing

@testable import TransitionServer

/// The op table: every op of protocol v1 is known, and exactly `route`, `reload` and `end` are
/// admin ops.
@Suite struct RequestRouterOpTests {
  @Test func everyProtocolOpIsKnown() {
    let protocolOps = [
      "hello", "animators", "route", "begin", "subscribe", "unsubscribe", "update", "pause",
      "resume", "reverse", "seek", "finish", "cancel", "sessions", "stats", "reload",
    ]
    for name in protocolOps {
      #expect(RequestRouter.Op(rawValue: name) != nil, "\(name)")
    }
    #expect(RequestRouter.Op(rawValue: "Hello") == nil)
  }

  @Test func onlyRouteReloadAndEndAreAdminOps() {
    let admin = Set(RequestRouter.Op.allCases.filter(\.isAdmin).map(\.rawValue))
    #expect(admin == ["route", "reload", "end"])
  }

  @Test func sessionControlsAreOps() {
    for name in SessionControl.opNames {
      #expect(RequestRouter.Op(rawValue: name) != nil, "\(name)")
    }
    #expect(SessionControl.opNames.count == 7)
  }

  @Test func daemonChosenSessionIDsCount() {
    let table = SessionTable()
    #expect(table.makeID() == "s1")
    #expect(table.makeID() == "s2")
    #expect(table.count == 0)
    #expect(table.all.isEmpty)
  }
}
