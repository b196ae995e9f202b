import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// Rendering ahead of the deadline (docs/architecture.md, "The frame clock"): a tick is
/// rendered a lead before its deadline, its frames are held in the subscribers' output until
/// the deadline and then released together; a render runs in slices so that requests are
/// served in between; a control op's frame still leaves at once, in order.
@Suite struct FrameClockRenderAheadTests {
  /// A harness whose timers may fire 2 ms late: the frame clock renders at least 2 ms ahead.
  private func harness() -> CoreHarness {
    let harness = CoreHarness()
    harness.clock.timerSlack = 0.002
    return harness
  }

  /// Subscribes `peer` to `id` at `fps` and reads the reply and the first frame.
  private func subscribe(_ peer: FakePeer, to id: String, fps: Int, in harness: CoreHarness) {
    let reply = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":\#(fps)}"#, from: peer)
    #expect(reply["ok"] == .bool(true), "\(reply)")
  }

  /// Begins `count` long crossfades from one peer and subscribes another to all of them at
  /// `fps`, reading what the subscriptions sent.
  private func watchedSessions(_ count: Int, fps: Int, in harness: CoreHarness)
    -> (sessions: [String], viewer: FakePeer)
  {
    let owner = harness.connect()
    let sessions = (0..<count).map { _ in harness.beginCrossfade(from: owner, duration: 100) }
    let viewer = harness.connect()
    for id in sessions { subscribe(viewer, to: id, fps: fps, in: harness) }
    _ = viewer.readLines()
    return (sessions, viewer)
  }

  /// A peer subscribed at 10 fps to a 10-second crossfade it began, and the clock it is on.
  private func subscribedCrossfade(in harness: CoreHarness) throws
    -> (peer: FakePeer, session: String, frameClock: FrameClock)
  {
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 10)
    subscribe(peer, to: id, fps: 10, in: harness)
    return (peer, id, try #require(harness.core.frameClocks[10]))
  }

  @Test func aTicksFramesAreRenderedAheadAndHeldUntilTheirDeadline() throws {
    let harness = harness()
    let (peer, id, frameClock) = try subscribedCrossfade(in: harness)
    let start = try #require(harness.core.sessions[id]).startTime
    for k in 1...5 {
      let deadline = frameClock.deadline(k)
      // A millisecond before the deadline the frame is rendered but held.
      harness.clock.advance(to: deadline - 0.001)
      #expect(peer.isHoldingOutput)
      #expect(peer.pendingOutputBytes > 0)
      #expect(peer.readLines().isEmpty)
      // At the deadline it is released, showing the deadline's time.
      harness.clock.advance(to: deadline)
      #expect(!peer.isHoldingOutput)
      let frames = peer.readLines().frames
      #expect(frames.count == 1)
      let t = try #require(frames.first?["t"]?.numberValue)
      #expect(abs(start + t - deadline) < 1e-6)
    }
    #expect(peer.holds == 5)
  }

  @Test func aRequestFromAHeldPeerEndsTheHoldSoTheFramesLeaveWithItsReply() throws {
    let harness = harness()
    let (peer, _, frameClock) = try subscribedCrossfade(in: harness)
    harness.clock.advance(to: frameClock.deadline(1) - 0.001)
    #expect(peer.isHoldingOutput)
    #expect(peer.readLines().isEmpty)
    // The request's reply does not wait for the deadline, and the held frame leaves first.
    harness.core.receive(line: Array(#"{"op":"hello","id":7}"#.utf8), from: peer)
    #expect(!peer.isHoldingOutput)
    let lines = peer.readLines()
    #expect(lines.count == 2)
    #expect(lines.first?["event"] == .string("frame"))
    #expect(lines.last?["id"] == .number(7))
  }

  @Test func theLeadFollowsTheRenderTimeAndStaysWithinAPeriod() throws {
    let harness = harness()
    let (sessions, peer) = watchedSessions(20, fps: 60, in: harness)
    let frameClock = try #require(harness.core.frameClocks[60])
    #expect(frameClock.lead.seconds == 0.002)
    // Each read of the clock now costs 50 µs: a tick of 20 streams takes a while.
    harness.clock.secondsPerRead = 0.000_05
    harness.clock.advance(by: 0.5)
    let lead = frameClock.lead
    #expect(lead.estimate > 0.001)
    #expect(lead.seconds > 0.002 + lead.estimate)
    #expect(lead.seconds <= 1.0 / 60)
    // Every tick still delivered all twenty frames, on the grid, none late: each render
    // began early enough to finish before its deadline.
    harness.clock.secondsPerRead = 0
    let frames = peer.readLines().frames
    #expect(frames.count >= 20 * 29)
    #expect(Set(frames.compactMap { $0["session"]?.stringValue }) == Set(sessions))
    #expect(harness.core.stats.ticksRendered >= 29)
    #expect(harness.core.stats.ticksLate == 0)
  }

  @Test func aRenderLongerThanAPeriodIsCountedLateAndSkipsDeadlinesRatherThanBursting() throws {
    let harness = harness()
    let (sessions, peer) = watchedSessions(20, fps: 60, in: harness)
    let frameClock = try #require(harness.core.frameClocks[60])
    let start = try #require(harness.core.sessions[sessions[0]]).startTime
    // A millisecond a read: a tick of twenty streams takes longer than a 60 fps period.
    harness.clock.secondsPerRead = 0.001
    harness.clock.advance(by: 0.5)
    harness.clock.secondsPerRead = 0
    #expect(harness.core.stats.ticksLate > 0)
    let indexes = peer.readLines().frames.filter { $0["session"]?.stringValue == sessions[0] }
      .compactMap { frame in frame["t"]?.numberValue.map { (start + $0 - frameClock.origin) * 60 } }
    // Frames stay on the grid, one per rendered deadline, in order; missed deadlines are
    // skipped (fewer frames than the 30 deadlines), never rendered twice.
    #expect(indexes.count < 30)
    #expect(zip(indexes, indexes.dropFirst()).allSatisfy { $1 - $0 >= 0.999 })
    #expect(indexes.allSatisfy { abs($0 - $0.rounded()) < 1e-3 })
  }

  @Test func aRenderRunsInSlicesAndRequestsAreAnsweredBetweenThem() throws {
    let harness = harness()
    let (sessions, viewer) = watchedSessions(40, fps: 30, in: harness)
    let frameClock = try #require(harness.core.frameClocks[30])
    // 20 µs a read: a slice (0.1 ms) renders a few streams, the tick many slices.
    harness.clock.secondsPerRead = 0.000_02
    harness.clock.advance(to: frameClock.deadline(1) - frameClock.lead.seconds + 0.000_5)
    let rendered = harness.core.sessions.all.filter {
      $0.streams[Session.StreamKey(fps: 30, geometry: .none)]?.lastFrameTime
        == frameClock.deadline(1)
    }.count
    #expect(rendered > 0)
    #expect(rendered < sessions.count, "the whole tick ran in one slice")
    // Each slice after the first let what the loop woke in between run first.
    #expect(harness.clock.processorYields > 0)
    // Between slices the core serves a request at once.
    let control = harness.connect()
    let reply = harness.reply(#"{"op":"sessions"}"#, from: control)
    #expect(reply["ok"] == .bool(true))
    // The render goes on and the tick's frames all leave at the deadline.
    harness.clock.secondsPerRead = 0
    harness.clock.advance(to: frameClock.deadline(1))
    #expect(viewer.readLines().frames.count == sessions.count)
  }

  /// Streams that leave between two slices of a tick, one already rendered and one not yet,
  /// and one that joins there: the tick's other frames all leave at its deadline, in order,
  /// and the next tick renders the streams on the clock in the order they joined.
  @Test func streamsThatLeaveOrJoinBetweenSlicesLeaveTheRenderWhole() throws {
    let harness = harness()
    let owner = harness.connect()
    let sessions = (0..<40).map { _ in harness.beginCrossfade(from: owner, duration: 100) }
    let viewer = harness.connect()
    let subscriptions = sessions.map { id in
      harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":30}"#, from: viewer)[
        "subscription"]?.numberValue ?? 0
    }
    _ = viewer.readLines()
    let frameClock = try #require(harness.core.frameClocks[30])
    harness.clock.secondsPerRead = 0.000_02
    harness.clock.advance(to: frameClock.deadline(1) - frameClock.lead.seconds + 0.000_5)
    let rendered = sessions.filter {
      harness.core.sessions[$0]?.streams[Session.StreamKey(fps: 30, geometry: .none)]?.lastFrameTime
        == frameClock.deadline(1)
    }
    #expect(rendered.first == sessions[0])
    #expect(rendered.count > 1 && rendered.count < sessions.count - 1, "\(rendered.count)")
    let rest = sessions.filter { !rendered.contains($0) }
    let control = harness.connect()
    // A reply leaves after the frames held for its connection: they go first, in order.
    var lines: [JSONValue] = []
    for subscription in [subscriptions[1], subscriptions.last ?? 0] {
      lines += harness.send(
        #"{"op":"unsubscribe","subscription":\#(subscription)}"#, from: viewer)
    }
    #expect(lines.filter { $0["ok"] == .bool(true) }.count == 2, "\(lines)")
    let late = harness.beginCrossfade(from: control, duration: 100)
    lines += harness.send(#"{"op":"subscribe","session":"\#(late)","fps":30}"#, from: viewer)
    harness.clock.secondsPerRead = 0
    harness.clock.advance(to: frameClock.deadline(1))
    lines += viewer.readLines()
    let tick = lines.frames.compactMap { $0["session"]?.stringValue }.filter { $0 != late }
    #expect(tick == rendered + rest.dropLast(), "\(tick)")
    harness.clock.advance(to: frameClock.deadline(2))
    let next = viewer.readLines().frames.compactMap { $0["session"]?.stringValue }
    let staying = sessions.enumerated().filter { $0.offset != 1 }.map(\.element).dropLast()
    #expect(next == staying + [late], "\(next)")
  }

  @Test func aRenderInOneSliceNeverYieldsTheProcessor() throws {
    let harness = harness()
    let (sessions, viewer) = watchedSessions(40, fps: 30, in: harness)
    let frameClock = try #require(harness.core.frameClocks[30])
    harness.clock.advance(to: frameClock.deadline(3))
    #expect(viewer.readLines().frames.count >= 3 * sessions.count)
    #expect(harness.clock.processorYields == 0)
  }

  /// A peer following a 10 fps session, a millisecond before deadline 1, its frame for that
  /// deadline rendered and held.
  private func heldAheadOfTheFirstDeadline(in harness: CoreHarness) throws
    -> (peer: FakePeer, session: String)
  {
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 10)
    subscribe(peer, to: id, fps: 10, in: harness)
    _ = peer.readLines()
    let frameClock = try #require(harness.core.frameClocks[10])
    harness.clock.advance(to: frameClock.deadline(1) - 0.001)
    #expect(peer.isHoldingOutput)
    return (peer, id)
  }

  @Test func aControlOpReleasesHeldFramesFirstAndSendsItsFrameAtOnce() throws {
    let harness = harness()
    let (peer, id) = try heldAheadOfTheFirstDeadline(in: harness)
    let lines = harness.send(#"{"op":"pause","session":"\#(id)"}"#, from: peer)
    // The held grid frame, the reply, then the frame of the paused state: in seq order.
    #expect(lines.map(\.event) == ["frame", nil, "frame"])
    #expect(lines[1]["ok"] == .bool(true))
    let seqs = lines.frames.compactMap { $0["seq"]?.numberValue }
    #expect(seqs.count == 2 && seqs[1] == seqs[0] + 1)
    #expect(!peer.isHoldingOutput)
  }

  @Test func aSessionCompletesAtItsEndNotWhenARenderCoversItAndItsLastLinesLeaveThen() throws {
    let harness = harness()
    let peer = harness.connect()
    // The subscription starts the 10 fps grid at the sessions' start: the short one's end,
    // 0.299 s, lies within the 2 ms lead of deadline 3 (0.3 s).
    let short = harness.beginCrossfade(from: peer, duration: 0.299)
    let long = harness.beginCrossfade(from: peer, duration: 10)
    subscribe(peer, to: short, fps: 10, in: harness)
    subscribe(peer, to: long, fps: 10, in: harness)
    _ = peer.readLines()
    let frameClock = try #require(harness.core.frameClocks[10])
    let start = try #require(harness.core.sessions[short]).startTime
    #expect(frameClock.origin == start)
    harness.clock.advance(to: frameClock.deadline(2))
    #expect(peer.readLines().frames.count == 4)
    // Deadline 3 is rendered: the long session's frame is held, the short one has none.
    harness.clock.advance(to: start + 0.298_5)
    #expect(harness.core.sessions[short] != nil, "a session does not end before its end")
    #expect(peer.isHoldingOutput)
    #expect(peer.readLines().isEmpty)
    // At its end the short session completes; its last lines leave at once, with the held
    // frame ahead of them (a millisecond early).
    harness.clock.advance(to: start + 0.299)
    #expect(harness.core.sessions[short] == nil)
    let lines = peer.readLines()
    #expect(lines.map(\.event) == ["frame", "frame", "complete"])
    #expect(lines[0]["session"] == .string(long))
    #expect(lines[1]["session"] == .string(short))
    #expect(lines[1]["progress"] == .number(1))
    #expect(lines[1]["t"] == .number(0.299))
    #expect(!peer.isHoldingOutput)
  }

  @Test func virtualFramesDoNotWaitForADeadlineAndTakeHeldFramesAlong() throws {
    let harness = harness()
    let (peer, _) = try heldAheadOfTheFirstDeadline(in: harness)
    let other = harness.beginCrossfade(from: harness.connect(), duration: 0.5)
    // A virtual subscription on the same connection while a wall frame is held.
    let lines = harness.send(
      #"{"op":"subscribe","session":"\#(other)","fps":30,"clock":"virtual"}"#, from: peer)
    #expect(!peer.isHoldingOutput)
    #expect(lines.first?.event == "frame", "the held wall frame leaves first")
    #expect(lines.frames.filter { $0["session"] == .string(other) }.count > 5)
  }

  @Test func atShutdownHeldFramesLeaveFirstAndNothingStaysScheduled() throws {
    let harness = harness()
    let (peer, _) = try heldAheadOfTheFirstDeadline(in: harness)
    harness.core.shutDown(reason: "test")
    #expect(peer.readLines().map(\.event) == ["frame", "stopping"])
    // No present timer is left holding the client until a deadline that no longer matters.
    #expect(harness.clock.scheduledTimers.isEmpty)
  }

  @Test func theClockStopsWithItsLastStreamAndStillReleasesWhatItHolds() throws {
    let harness = harness()
    let (peer, id) = try heldAheadOfTheFirstDeadline(in: harness)
    // Another client ends the session between the render and the deadline.
    let admin = harness.connect(uid: CoreHarness.daemonUID)
    #expect(harness.reply(#"{"op":"end","session":"\#(id)"}"#, from: admin)["ok"] == .bool(true))
    let lines = peer.readLines()
    #expect(lines.map(\.event) == ["frame", "frame", "complete"])
    #expect(harness.core.frameClocks[10] == nil)
    harness.clock.advance(by: 1)
    #expect(peer.readLines().isEmpty)
    #expect(harness.clock.scheduledTimers.isEmpty)
  }
}
