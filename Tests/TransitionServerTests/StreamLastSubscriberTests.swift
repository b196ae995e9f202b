import Testing
import TransitionJSON
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// A stream whose last subscriber leaves while it renders (its client closed by the send) stays
/// off the frame clock. `transition-soak` found the daemon crashing there: a `*` subscriber too
/// slow to keep was dropped by the first frame of a session that had just begun, the stream it
/// left went on the frame clock all the same, outside its session, and the clock went on
/// rendering it after the session had completed and been freed.
@Suite struct StreamLastSubscriberTests {
  @Test func aStreamWhoseLastSubscriberLeftOnItsFirstFrameStaysOffTheClock() {
    let harness = CoreHarness()
    let watcher = harness.connect()
    #expect(
      harness.reply(#"{"id":1,"op":"subscribe","session":"*","fps":60}"#, from: watcher)["ok"]
        == .bool(true))
    watcher.closesOnFrame = true
    let owner = harness.connect()
    let session = harness.beginCrossfade(from: owner, duration: 0.5)
    #expect(!watcher.isOpen)
    // The session's completion timer alone: no frame clock ticks for a stream nobody reads.
    #expect(harness.clock.scheduledTimerCount == 1)
    #expect(harness.core.frameClocks[60] == nil)
    harness.clock.advance(by: 1)
    #expect(harness.core.sessions[session] == nil)
    #expect(harness.clock.scheduledTimerCount == 0)
  }

  @Test func aSubscriberThatLeavesOnAControlOpsFrameTakesTheStreamOffTheClock() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let session = harness.beginCrossfade(from: owner, duration: 0.5, extra: #","interactive":true"#)
    let reader = harness.connect()
    #expect(
      harness.reply(#"{"id":1,"op":"subscribe","session":"\#(session)","fps":60}"#, from: reader)[
        "ok"] == .bool(true))
    reader.closesOnFrame = true
    // `finish` sets the session moving: its frame, sent at once, closes the last reader.
    #expect(
      harness.reply(#"{"id":2,"op":"finish","session":"\#(session)"}"#, from: owner)["ok"]
        == .bool(true))
    #expect(!reader.isOpen)
    #expect(harness.core.frameClocks[60] == nil)
    harness.clock.advance(by: 1)
    #expect(harness.core.sessions[session] == nil)
    #expect(harness.clock.scheduledTimerCount == 0)
  }
}
