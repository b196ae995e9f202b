import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// Frames in the core: wall-clock streams on the shared frame clock of their rate, frames
/// sent at once for interactive changes, `*` subscriptions, and virtual-clock streams.
@Suite struct ServerCoreStreamingTests {
  @Test func aWallStreamSendsAFrameAtOnceThenOneAPeriodThenTheFinalFrameAndComplete() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer)
    let subscribed = harness.send(
      #"{"id":2,"op":"subscribe","session":"\#(id)","fps":10}"#, from: peer)
    #expect(subscribed.map(\.event) == [nil, "begin", "frame"])
    #expect(subscribed[0]["subscription"] == .number(1))
    // Every subscriber's stream opens with the session's begin event: what drawing needs.
    let start = try #require(harness.core.sessions[id]).startTime
    #expect(
      subscribed[1]
        == .object([
          "event": .string("begin"), "session": .string(id),
          "container": .array([.number(100), .number(200)]), "animator": .string("crossfade"),
          "operation": .string("present"), "duration": .number(0.5), "clock": .string("wall"),
          "fps": .number(10), "encoding": .string("full"), "interactive": .bool(false),
          "start": .number(start), "motion": .string("full"),
        ]))
    #expect(subscribed[2]["seq"] == .number(0))
    #expect(subscribed[2]["progress"] == .number(0))
    harness.clock.advance(by: 0.25)
    let ticks = peer.readLines()
    #expect(ticks.map { $0["seq"] } == [.number(1), .number(2)])
    harness.clock.advance(by: 1)
    let end = peer.readLines()
    #expect(end.map(\.event) == ["frame", "frame", "frame", "complete"])
    #expect(end[2]["progress"] == .number(1))
    #expect(end[2]["seq"] == .number(5))
    #expect(
      end[3]
        == .object(["event": .string("complete"), "session": .string(id), "finished": .bool(true)]))
    // The subscription ended with its session.
    let unsubscribe = harness.reply(#"{"op":"unsubscribe","subscription":1}"#, from: peer)
    #expect(unsubscribe.errorCode == "unknown_subscription")
    #expect(harness.core.stats.framesSent == 6)
    #expect(harness.clock.scheduledTimers.isEmpty)
  }

  @Test func theGridIsDriftFreeAndSkipsWhatALateLoopMissed() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 100)
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: peer)
    let frameClock = try #require(harness.core.frameClocks[60])
    harness.clock.lateness = 0.004
    for _ in 0..<100 { harness.clock.advance(by: 1.0 / 60) }
    // Every deadline is origin + k/60, however late each tick ran.
    let deadlines = harness.clock.scheduledTimers.compactMap(\.deadline)
    #expect(
      deadlines.contains { deadline in
        (1...1_000).contains { k in deadline == frameClock.deadline(k) }
      })
    harness.clock.lateness = 0.05  // three periods late: missed ticks are skipped
    let before = peer.readLines().frames.count
    harness.clock.advance(by: 0.5)
    let after = peer.readLines().frames.count
    #expect(before >= 99)
    #expect(after < 30)
    #expect(after > 0)
  }

  @Test func streamsOfOneRateShareOneFrameClockAndOneTimer() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let a = harness.beginCrossfade(from: peer)
    let b = harness.beginCrossfade(from: peer)
    _ = harness.send(#"{"op":"subscribe","session":"\#(a)","fps":60}"#, from: peer)
    _ = harness.send(#"{"op":"subscribe","session":"\#(b)","fps":60}"#, from: peer)
    _ = harness.send(#"{"op":"subscribe","session":"\#(b)","fps":60}"#, from: harness.connect())
    #expect(harness.core.frameClocks[60]?.streams.count == 2)
    // Two completion timers and one frame clock.
    #expect(harness.clock.scheduledTimers.count == 3)
    harness.clock.advance(by: 1.0 / 60)
    let frames = peer.readLines().frames
    #expect(frames.map { $0["session"] } == [.string(a), .string(b)])
    #expect(frames.map { $0["t"] } == [frames[0]["t"], frames[0]["t"]])
    _ = harness.send(#"{"op":"subscribe","session":"\#(a)","fps":30}"#, from: peer)
    #expect(harness.clock.scheduledTimers.count == 4)
  }

  @Test func aStillSessionSendsOneFramePerChangeAndInteractiveChangesGoOutAtOnce() {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, extra: #","interactive":true"#)
    let subscribed = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: peer)
    #expect(subscribed.frames.count == 1)
    harness.clock.advance(by: 1)
    #expect(peer.readLines().isEmpty)
    #expect(harness.clock.scheduledTimers.isEmpty)
    let update = harness.send(#"{"op":"update","session":"\#(id)","progress":0.5}"#, from: peer)
    #expect(update.map(\.event) == [nil, "frame"])
    #expect(update[1]["progress"] == .number(0.5))
    #expect(update[1]["seq"] == .number(1))
    // A second subscriber at the same rate joins a still stream: both get the current state.
    let other = harness.connect()
    #expect(
      harness.send(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: other).frames.count
        == 1)
    #expect(peer.readLines().frames.map { $0["seq"] } == [.number(2)])
    // Resumed, the session moves: a frame at once, then the grid.
    let resume = harness.send(#"{"op":"resume","session":"\#(id)"}"#, from: peer)
    #expect(resume.map(\.event) == [nil, "frame"])
    harness.clock.advance(by: 0.05)
    #expect(peer.readLines().frames.count == 3)
    let pause = harness.send(#"{"op":"pause","session":"\#(id)"}"#, from: peer)
    #expect(pause.map(\.event) == [nil, "frame"])
    harness.clock.advance(by: 1)
    #expect(peer.readLines().isEmpty)
  }

  @Test func everyStarSubscriberOfANewSessionGetsItsBeginEventAndFirstFrame() {
    let harness = CoreHarness()
    let starter = harness.connect()
    let watchers = [harness.connect(), harness.connect(), harness.connect()]
    for watcher in watchers {
      _ = harness.send(#"{"op":"subscribe","session":"*","fps":10}"#, from: watcher)
    }
    let id = harness.beginCrossfade(from: starter)
    let received = watchers.map { $0.readLines() }
    for lines in received {
      #expect(lines.map(\.event) == ["begin", "frame"])
      #expect(lines.first?["session"] == .string(id))
      #expect(lines.last?["seq"] == .number(0))
    }
    // One frame, rendered once: the same line for all.
    #expect(received.allSatisfy { $0.last == received[0].last })
  }

  @Test func everySessionSubscribersGetABeginEventThenTheFrames() {
    let harness = CoreHarness()
    let starter = harness.connect()
    let running = harness.beginCrossfade(from: starter)
    let watcher = harness.connect()
    let subscribed = harness.send(#"{"op":"subscribe","session":"*","fps":10}"#, from: watcher)
    #expect(subscribed.map(\.event) == [nil, "begin", "frame"])
    #expect(subscribed[1]["session"] == .string(running))
    #expect(subscribed[1]["interactive"] == .bool(false))
    #expect(subscribed[1]["container"] == .array([.number(100), .number(200)]))
    #expect(subscribed[1]["clock"] == .string("wall"))
    #expect(subscribed[1]["fps"] == .number(10))
    let later = harness.beginCrossfade(from: starter, extra: #","interactive":true"#)
    let announced = watcher.readLines()
    #expect(announced.map(\.event) == ["begin", "frame"])
    #expect(announced[0]["session"] == .string(later))
    #expect(announced[0]["interactive"] == .bool(true))
    harness.clock.advance(by: 0.6)
    let lines = watcher.readLines()
    #expect(lines.last?.event == "complete")
    #expect(lines.last?["session"] == .string(running))
    // A `*` subscription outlives the sessions it followed.
    #expect(
      harness.reply(#"{"op":"unsubscribe","subscription":1}"#, from: watcher)["ok"] == .bool(true))
  }

  @Test func aVirtualStreamRendersTheTimelineAsDesignedAsFastAsThePeerDrains() {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer)
    let lines = harness.send(
      #"{"op":"subscribe","session":"\#(id)","fps":4,"clock":"virtual"}"#, from: peer)
    #expect(lines.map(\.event) == [nil, "begin", "frame", "frame", "frame", "complete"])
    #expect(lines[1]["clock"] == .string("virtual"))
    #expect(lines[1]["fps"] == .number(4))
    #expect(lines[1]["container"] == .array([.number(100), .number(200)]))
    #expect(lines[2...4].map { $0["t"] } == [.number(0), .number(0.25), .number(0.5)])
    #expect(lines[2...4].map { $0["progress"] } == [.number(0), .number(0.5), .number(1)])

    let long = harness.beginCrossfade(from: peer, duration: 10)
    let first = harness.send(
      #"{"op":"subscribe","session":"\#(long)","fps":240,"clock":"virtual"}"#, from: peer)
    var frames = first.frames
    #expect(frames.count < 2_401)
    var complete = false
    var rounds = 0
    while !complete, rounds < 1_000 {
      harness.core.peerDrained(peer)
      let more = peer.readLines()
      frames += more.frames
      complete = more.contains { $0.event == "complete" }
      rounds += 1
    }
    #expect(complete)
    #expect(frames.count == 2_401)
    #expect(frames.map { $0["seq"]?.numberValue ?? -1 } == (0...2_400).map(Double.init))
  }
}

/// Sessions with equal timelines share one compiled timeline (``CompiledTimelines``) and
/// still stream frames of their own.
@Suite struct ServerCoreSharedTimelineTests {
  @Test func sessionsWithEqualTimelinesShareTheCompiledOneAndStreamTheirOwnFrames() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let first = harness.beginCrossfade(from: peer)
    let second = harness.beginCrossfade(from: peer)
    // Another screen: another timeline.
    let otherLine = CoreHarness.beginCrossfadeLine().replacingOccurrences(
      of: "[10,10,20,20]", with: "[30,40,20,20]")
    let other = try #require(harness.reply(otherLine, from: peer)["session"]?.stringValue)
    #expect((harness.core.stats.timelinesCompiled, harness.core.stats.timelinesShared) == (2, 1))
    let stats = harness.reply(#"{"op":"stats"}"#, from: peer)
    #expect(
      stats["stats"]?["timelines"] == .object(["compiled": .number(2), "shared": .number(1)]))
    for id in [first, second, other] {
      _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: peer)
    }
    // The second session sent on half way: the first's frames go on without it.
    _ = harness.send(#"{"op":"seek","session":"\#(second)","progress":0.5}"#, from: peer)
    harness.clock.advance(by: 0.2)
    let frames = peer.readLines().filter { $0.event == "frame" }
    let bySession = Dictionary(grouping: frames) { $0["session"]?.stringValue ?? "" }
    #expect(Set(bySession.keys) == [first, second, other])
    let firstFrames = try #require(bySession[first])
    let secondFrames = try #require(bySession[second])
    #expect(firstFrames.map { $0["progress"] } == [.number(0.2), .number(0.4)])
    #expect(secondFrames.map { $0["progress"] } == [.number(0.7), .number(0.9)])
    // The same timeline at the same progress: the same layers, whichever session.
    let otherFrames = try #require(bySession[other])
    #expect(firstFrames[0]["layers"] != otherFrames[0]["layers"])
    #expect(secondFrames.last?["layers"] != firstFrames.last?["layers"])
  }
}
