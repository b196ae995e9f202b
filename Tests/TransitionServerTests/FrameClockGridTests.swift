import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// The frame clock's grid on a fake clock (docs/architecture.md, "The frame clock"): frames
/// show deadline k = origin + k / fps, never "last fire + interval", however late the timer
/// fires; each due stream renders once a tick, its one line going to every subscriber; a
/// control op's frame goes out at once and the grid goes on.
@Suite struct FrameClockGridTests {
  /// The session's start on the core's clock.
  private func start(of id: String, in harness: CoreHarness) throws -> Double {
    try #require(harness.core.sessions[id]).startTime
  }

  /// The grid index a frame's `t` shows on `frameClock`, and how far it is off the grid in
  /// periods.
  private func gridPosition(_ frame: JSONValue, start: Double, on frameClock: FrameClock)
    -> (index: Double, offGrid: Double)
  {
    let t = frame["t"]?.numberValue ?? .nan
    let periods = (start + t - frameClock.origin) * frameClock.fps
    return (periods.rounded(), abs(periods - periods.rounded()))
  }

  @Test func ticksShowTheDeadlineOriginPlusKOverFpsHoweverLateTheTimerFires() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 1_000)
    harness.clock.advance(by: 0.0123)  // subscribe off the grid
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: peer)
    let frameClock = try #require(harness.core.frameClocks[60])
    let start = try start(of: id, in: harness)
    harness.clock.lateness = 0.004  // every timer a quarter of a period late
    var indexes: [Double] = []
    for _ in 0..<300 {
      harness.clock.advance(by: 1.0 / 60)
      for frame in peer.readLines().frames {
        let position = gridPosition(frame, start: start, on: frameClock)
        // `t` is written to 7 significant digits: well within a thousandth of a period.
        #expect(position.offGrid < 1e-3, "frame \(frame["seq"] ?? .null) is off the grid")
        indexes.append(position.index)
      }
    }
    // One frame per deadline, consecutive: none skipped, none doubled (the last deadline's
    // timer is still 4 ms away).
    #expect(indexes.count >= 299)
    #expect(zip(indexes, indexes.dropFirst()).allSatisfy { $1 == $0 + 1 })
  }

  @Test func theGridDoesNotDriftAfterManyTicks() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 3_000)
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":120}"#, from: peer)
    let frameClock = try #require(harness.core.frameClocks[120])
    let start = try start(of: id, in: harness)
    harness.clock.lateness = 0.001
    // Five minutes of ticks, each a millisecond late: "last fire + interval" would have
    // drifted by 36,000 ms.
    let ticks = 36_000
    for tick in 0..<ticks {
      harness.clock.advance(by: 1.0 / 120)
      if tick % 1_000 == 0 { peer.dropUnread() }
    }
    let frames = peer.readLines().frames
    let last = try #require(frames.last)
    let position = gridPosition(last, start: start, on: frameClock)
    #expect(position.offGrid < 1e-2)
    // Frame 0 went out at the subscription; the last deadline's timer is still 1 ms away.
    #expect(last["seq"] == .number(Double(ticks - 1)))
    #expect(harness.clock.scheduledTimers.contains { $0.deadline == frameClock.deadline(ticks) })
  }

  @Test func eachDueStreamRendersOnceATickAndEverySubscriberGetsTheSameLine() throws {
    let harness = CoreHarness()
    let owner = harness.connect()
    let sessions = (0..<3).map { _ in harness.beginCrossfade(from: owner, duration: 100) }
    let peers = (0..<4).map { _ in harness.connect() }
    for peer in peers {
      for id in sessions {
        let reply = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":30}"#, from: peer)
        #expect(reply["ok"] == .bool(true), "\(reply)")
      }
      _ = peer.readLines()
    }
    let frameClock = try #require(harness.core.frameClocks[30])
    for tick in 1...5 {
      harness.clock.advance(to: frameClock.deadline(tick))
      let received = peers.map { $0.readLines().frames }
      for frames in received {
        // One frame of each session per tick for each peer.
        #expect(frames.count == sessions.count)
        #expect(Set(frames.compactMap { $0["session"]?.stringValue }) == Set(sessions))
      }
      // Rendered once: every peer got the very same frame (seq and all) of each session.
      #expect(received.allSatisfy { $0 == received[0] })
    }
    #expect(frameClock.streams.count == sessions.count)
  }

  /// Streams that leave between ticks leave the others ticking in the order they joined, and
  /// a stream that joins again ticks after those already there; the last to leave stops the
  /// clock.
  @Test func streamsThatLeaveLeaveTheOthersTickingInTheOrderTheyJoined() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let sessions = (0..<6).map { _ in harness.beginCrossfade(from: peer, duration: 100) }
    var subscriptions: [String: Double] = [:]
    func subscribe(_ index: Int) {
      let reply = harness.reply(
        #"{"op":"subscribe","session":"\#(sessions[index])","fps":30}"#, from: peer)
      subscriptions[sessions[index]] = reply["subscription"]?.numberValue
    }
    func unsubscribe(_ index: Int) {
      let subscription = subscriptions[sessions[index]] ?? 0
      let reply = harness.reply(
        #"{"op":"unsubscribe","subscription":\#(subscription)}"#, from: peer)
      #expect(reply["ok"] == .bool(true), "\(reply)")
    }
    for index in sessions.indices { subscribe(index) }
    _ = peer.readLines()
    let frameClock = try #require(harness.core.frameClocks[30])
    func tickOrder(_ tick: Int) -> [String] {
      harness.clock.advance(to: frameClock.deadline(tick))
      return peer.readLines().frames.compactMap { $0["session"]?.stringValue }
    }
    #expect(tickOrder(1) == sessions)
    unsubscribe(1)
    unsubscribe(3)
    _ = peer.readLines()
    #expect(tickOrder(2) == [0, 2, 4, 5].map { sessions[$0] })
    #expect(frameClock.streams.count == 4)
    subscribe(1)
    unsubscribe(4)
    _ = peer.readLines()
    #expect(tickOrder(3) == [0, 2, 5, 1].map { sessions[$0] })
    #expect(tickOrder(4) == [0, 2, 5, 1].map { sessions[$0] })
    for index in [0, 2, 5, 1] { unsubscribe(index) }
    #expect(frameClock.streams.isEmpty)
    #expect(harness.core.frameClocks[30] == nil)
  }

  /// A client that subscribes and unsubscribes over and over between two ticks leaves the
  /// clock's list within twice the streams on it, and the others ticking.
  @Test func joiningAndLeavingBetweenTicksKeepsTheListBounded() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let sessions = (0..<4).map { _ in harness.beginCrossfade(from: peer, duration: 100) }
    for id in sessions.prefix(3) {
      _ = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":30}"#, from: peer)
    }
    let frameClock = try #require(harness.core.frameClocks[30])
    for _ in 0..<500 {
      let reply = harness.reply(
        #"{"op":"subscribe","session":"\#(sessions[3])","fps":30}"#, from: peer)
      let subscription = reply["subscription"]?.numberValue ?? 0
      _ = harness.reply(#"{"op":"unsubscribe","subscription":\#(subscription)}"#, from: peer)
      #expect(frameClock.slotCount <= 2 * 4 + 1)
    }
    _ = peer.readLines()
    harness.clock.advance(to: frameClock.deadline(1))
    let tick = peer.readLines().frames.compactMap { $0["session"]?.stringValue }
    #expect(tick == Array(sessions.prefix(3)))
  }

  @Test func aControlOpSendsItsFrameAtOnceAndTheGridGoesOn() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 100, extra: #","interactive":true"#)
    _ = harness.send(#"{"op":"update","session":"\#(id)","progress":0.1}"#, from: peer)
    _ = harness.send(#"{"op":"resume","session":"\#(id)"}"#, from: peer)
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: peer)
    let frameClock = try #require(harness.core.frameClocks[10])
    let start = try start(of: id, in: harness)
    harness.clock.advance(by: 0.1)
    _ = peer.readLines()
    harness.clock.advance(by: 0.037)  // between two deadlines
    let seek = harness.send(#"{"op":"seek","session":"\#(id)","progress":0.25}"#, from: peer)
    // The reply, then at once the frame showing the change, off the grid.
    #expect(seek.map(\.event) == [nil, "frame"])
    #expect(seek[1]["progress"] == .number(0.25))
    #expect(gridPosition(seek[1], start: start, on: frameClock).offGrid > 0.1)
    // The next frame comes at the next deadline, on the grid.
    harness.clock.advance(by: 0.1)
    let next = try #require(peer.readLines().frames.first)
    #expect(gridPosition(next, start: start, on: frameClock).offGrid < 1e-3)
    #expect(next["seq"] == .number((seek[1]["seq"]?.numberValue ?? 0) + 1))
  }
}
