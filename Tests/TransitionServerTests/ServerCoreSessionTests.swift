import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import TransitionServer

/// Sessions in the core: `begin`, completion on the fake clock, every control op, `end`, who
/// may control a session, and what happens when its owner leaves.
@Suite struct ServerCoreSessionTests {
  private func begin(_ extra: String = "") -> String {
    CoreHarness.beginCrossfadeLine(extra: extra)
  }

  @Test func beginRepliesAndTheSessionCompletesAtItsEnd() {
    let harness = CoreHarness()
    let peer = harness.connect()
    harness.clock.advance(by: 0.25)
    let reply = harness.reply(begin(#","id":5"#), from: peer)
    // `start` is the core's clock at the begin: frame `t` counts from it.
    #expect(
      reply
        == .object([
          "id": .number(5), "ok": .bool(true), "session": .string("s1"),
          "animator": .string("crossfade"), "operation": .string("present"),
          "duration": .number(0.5), "fallback": .bool(false), "layers": .number(2),
          "interactive": .bool(false), "start": .number(1_000.25), "motion": .string("full"),
        ]))
    let listed = harness.reply(#"{"op":"sessions"}"#, from: peer)["sessions"]?.arrayValue
    #expect(listed?.first?["state"] == .string("running"))
    harness.clock.advance(by: 0.49)
    #expect(harness.core.sessionCount == 1)
    harness.clock.advance(by: 0.01)
    #expect(harness.core.sessionCount == 0)
    #expect(harness.core.stats.sessionsCompleted == 1)
    #expect(harness.core.stats.sessionsByAnimator == ["crossfade": 1])
    // The id is free again.
    #expect(harness.beginCrossfade(from: peer, extra: #","session":"s1""#) == "s1")
  }

  @Test func aDecliningAnimatorFallsBackToDefaultSlide() {
    let harness = CoreHarness()
    let reply = harness.reply(
      #"{"op":"begin","context":{"operation":"push","container":[100,200],"from":{"layers":[{"id":"list","frame":[0,0,100,200]}]},"to":{"layers":[{"id":"detail","frame":[0,0,100,200]}]}}}"#,
      from: harness.connect())
    #expect(reply["animator"] == .string("default-slide"))
    #expect(reply["fallback"] == .bool(true))
    #expect(reply["layers"] == .number(3))
  }

  @Test func beginRefusesWhatDocsProtocolRefuses() {
    let harness = CoreHarness()
    let peer = harness.connect()
    _ = harness.beginCrossfade(from: peer, extra: #","session":"taken""#)
    let cases: [(String, String)] = [
      (#"{"op":"begin"}"#, "bad_request"),
      (begin(#","session":"taken""#), "bad_request"),
      (begin(#","session":"*""#), "bad_request"),
      (CoreHarness.beginCrossfadeLine(duration: 0), "bad_request"),
      (CoreHarness.beginCrossfadeLine(duration: 3_601), "limit_exceeded"),
      (
        begin(#","animator":"nope""#).replacingOccurrences(
          of: #""animator":"crossfade","#, with: ""),
        "unknown_animator"
      ),
      (
        #"{"op":"begin","animator":"crossfade","context":{"operation":"push","container":[100,200],"from":{},"to":{}}}"#,
        "unsupported_operation"
      ),
      (
        #"{"op":"begin","context":{"operation":"push","container":[100,200],"from":{"layers":[{"id":"a","frame":[0,0,-5,10]}]},"to":{}}}"#,
        "invalid_context"
      ),
    ]
    for (line, code) in cases {
      #expect(harness.reply(line, from: peer).errorCode == code, "\(line)")
    }
    #expect(harness.core.sessionCount == 1)
  }

  @Test func everyControlOpMovesTheClockAsTheEngineSays() {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, extra: #","interactive":true"#)
    func control(_ op: String, _ extra: String = "") -> JSONValue {
      harness.reply(#"{"op":"\#(op)","session":"\#(id)"\#(extra)}"#, from: peer)
    }
    #expect(control("update", #","progress":0.4"#)["progress"] == .number(0.4))
    #expect(control("seek", #","progress":0.2"#)["state"] == .string("interactive"))
    #expect(control("resume")["state"] == .string("running"))
    harness.clock.advance(by: 0.05)
    let paused = control("pause")
    #expect(paused["state"] == .string("paused"))
    #expect(abs((paused["progress"]?.numberValue ?? 0) - 0.3) < 1e-9)
    harness.clock.advance(by: 1)
    #expect(control("reverse")["state"] == .string("paused"))
    #expect(control("resume")["state"] == .string("running"))
    harness.clock.advance(by: 0.05)
    #expect(abs((control("seek", #","progress":0.5"#)["progress"]?.numberValue ?? 0) - 0.5) < 1e-9)
    #expect(control("finish")["state"] == .string("finishing"))
    #expect(control("cancel", #","velocity":-1"#)["state"] == .string("cancelling"))
    harness.clock.advance(by: 2)
    #expect(harness.core.sessionCount == 0)
    #expect(harness.core.stats.sessionsCancelled == 1)
  }

  @Test func controlErrorsNameTheSessionAndTheProblem() {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, extra: #","interactive":true"#)
    let pause = harness.reply(#"{"op":"pause","session":"\#(id)"}"#, from: peer)
    #expect(pause.errorCode == "invalid_state")
    #expect(
      pause["error"]?["message"]
        == .string("session s1: cannot pause a transition that is interactive"))
    let update = harness.reply(#"{"op":"update","session":"\#(id)","progress":2}"#, from: peer)
    #expect(update.errorCode == "bad_request")
    #expect(
      harness.reply(#"{"op":"update","session":"\#(id)"}"#, from: peer).errorCode == "bad_request")
    #expect(
      harness.reply(#"{"op":"pause","session":"s9"}"#, from: peer).errorCode == "unknown_session")
  }

  @Test func onlyTheSessionsUserOrAnAdminMayControlIt() {
    let harness = CoreHarness()
    let owner = harness.connect(uid: 1_000)
    let id = harness.beginCrossfade(from: owner, extra: #","interactive":true"#)
    let line = #"{"op":"update","session":"\#(id)","progress":0.1}"#
    let stranger = harness.reply(line, from: harness.connect(uid: 1_001))
    #expect(stranger.errorCode == "forbidden")
    #expect(stranger["error"]?["message"]?.stringValue?.hasSuffix("may update it") == true)
    #expect(harness.reply(line, from: harness.connect(uid: nil)).errorCode == "forbidden")
    #expect(harness.reply(line, from: harness.connect(uid: 1_000))["ok"] == .bool(true))
    #expect(harness.reply(line, from: harness.connect(uid: 0))["ok"] == .bool(true))
  }

  /// `sessions` lists the running sessions oldest first: one that ended leaves the others in
  /// place, and an id chosen again later is listed as the newest.
  @Test func sessionsAreListedInTheOrderTheyBegan() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let admin = harness.connect(uid: 0)
    let first = (0..<4).map { _ in harness.beginCrossfade(from: owner, duration: 100) }
    _ = harness.send(#"{"op":"end","session":"\#(first[1])"}"#, from: admin)
    let chosen = harness.beginCrossfade(from: owner, duration: 100, extra: #","session":"a""#)
    _ = harness.send(#"{"op":"end","session":"\#(first[0])"}"#, from: admin)
    let again = harness.beginCrossfade(
      from: owner, duration: 100, extra: #","session":"\#(first[0])""#)
    let listed = harness.reply(#"{"op":"sessions"}"#, from: owner)["sessions"]?.arrayValue ?? []
    #expect(
      listed.compactMap { $0["session"]?.stringValue } == [first[2], first[3], chosen, again])
  }

  @Test func endCancelsAtOnceWithAFinalFrameOfTheInitialState() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, extra: #","interactive":true"#)
    _ = harness.send(#"{"op":"update","session":"\#(id)","progress":0.5}"#, from: owner)
    let watcher = harness.connect()
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)"}"#, from: watcher)
    let lines = harness.send(
      #"{"id":1,"op":"end","session":"\#(id)"}"#, from: harness.connect(uid: 0))
    #expect(lines.map(\.event) == [nil])
    let seen = watcher.readLines()
    #expect(seen.map(\.event) == ["frame", "complete"])
    #expect(seen.first?["progress"] == .number(0))
    #expect(seen.last?["finished"] == .bool(false))
    #expect(harness.core.sessionCount == 0)
  }

  @Test func anInteractiveSessionWhoseOwnerLeavesIsCancelled() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, extra: #","interactive":true"#)
    let watcher = harness.connect()
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)"}"#, from: watcher)
    owner.close()
    #expect(harness.core.sessionCount == 0)
    #expect(watcher.readLines().last?["finished"] == .bool(false))
  }

  @Test func aPausedSessionWhoseOwnerLeavesResumesAndARunningOneRunsOn() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let paused = harness.beginCrossfade(from: owner)
    _ = harness.beginCrossfade(from: owner)
    _ = harness.send(#"{"op":"pause","session":"\#(paused)"}"#, from: owner)
    owner.close()
    let states = harness.reply(#"{"op":"sessions"}"#, from: harness.connect())["sessions"]?
      .arrayValue?.map { $0["state"] }
    #expect(states == [.string("running"), .string("running")])
    harness.clock.advance(by: 0.6)
    #expect(harness.core.sessionCount == 0)
    #expect(harness.core.stats.sessionsCompleted == 2)
  }
}
