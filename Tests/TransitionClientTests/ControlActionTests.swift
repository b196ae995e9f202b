import Testing

@testable import TransitionClient

/// The request each interactive control sends.
@Suite struct ControlActionTests {
  @Test func opNamesFollowTheProtocol() {
    let actions: [ControlAction] = [
      .update(progress: 0.5), .seek(progress: 0.1), .pause, .resume, .reverse,
      .finish(velocity: nil), .cancel(velocity: nil),
    ]
    #expect(
      actions.map(\.op.rawValue) == [
        "update", "seek", "pause", "resume", "reverse", "finish", "cancel",
      ])
  }

  @Test func progressAndVelocityAreSentOnlyWhenGiven() {
    let update = ControlAction.update(progress: 0.25).request(session: "s1")
    #expect(update["op"]?.stringValue == "update")
    #expect(update["session"]?.stringValue == "s1")
    #expect(update["progress"]?.numberValue == 0.25)
    #expect(update["velocity"] == nil)

    let finish = ControlAction.finish(velocity: 2).request(session: "s2")
    #expect(finish["velocity"]?.numberValue == 2)
    #expect(finish["progress"] == nil)

    let cancel = ControlAction.cancel(velocity: nil).request(session: "s3")
    #expect(Set(cancel.keys) == ["op", "session"])
  }

  @Test func defaultPathFollowsTheEnvironment() {
    #expect(DaemonClient.defaultPath(environment: ["TRANSITIOND_SOCKET": "/x.sock"]) == "/x.sock")
    #expect(
      DaemonClient.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/5/"])
        == "/run/user/5/transitiond/transitiond.sock")
  }
}
