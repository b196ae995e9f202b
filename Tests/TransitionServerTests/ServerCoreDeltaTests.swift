import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting
import TransitionWire

@testable import TransitionServer

/// Delta subscriptions in the core (docs/protocol.md, "Delta frames"): one delta encoding per
/// stream, key frames for joiners and after coalescing, and the rebuilt frames equal to a full
/// subscriber's.
@Suite struct ServerCoreDeltaTests {
  private func applied(_ lines: [JSONValue], into applier: inout FrameDeltaApplier) throws
    -> [Int: JSONValue]
  {
    var frames: [Int: JSONValue] = [:]
    for line in lines.frames {
      let full = try applier.apply(line.objectValue ?? [:])
      frames[Int(full["seq"]?.numberValue ?? -1)] = .object(full)
    }
    return frames
  }

  @Test func aCoalescedDeltaSubscriberGetsAKeyFrameThenDeltasAgain() throws {
    var limits = ServerLimits()
    limits.subscriberSoftLimitBytes = 1_000
    let harness = CoreHarness(limits: limits)
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    // A full subscriber that reads everything, for comparison.
    let fast = harness.connect()
    var fullFrames: [Int: JSONValue] = [:]
    func readFast(_ lines: [JSONValue]) {
      for frame in lines.frames { fullFrames[Int(frame["seq"]?.numberValue ?? -1)] = frame }
    }
    readFast(harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: fast))
    let slow = harness.connect()
    let reply = harness.send(
      #"{"op":"subscribe","session":"\#(id)","fps":10,"encoding":"delta"}"#, from: slow)
    #expect(reply.first?["encoding"] == .string("delta"))
    #expect(reply.frames.first?["key"] == .bool(true))
    var applier = FrameDeltaApplier()
    var rebuilt = try applied(reply, into: &applier)
    for _ in 0..<10 {
      harness.clock.advance(by: 0.105)
      readFast(fast.readLines())
    }
    let written = slow.readLines()
    #expect(harness.core.stats.framesCoalesced > 0)
    rebuilt.merge(try applied(written, into: &applier)) { $1 }
    harness.core.peerDrained(slow)
    let waiting = slow.readLines().frames
    #expect(waiting.map { $0["seq"] } == [.number(10)])
    #expect(waiting.first?["key"] == .bool(true))
    rebuilt.merge(try applied(waiting, into: &applier)) { $1 }
    harness.clock.advance(by: 0.1)
    readFast(fast.readLines())
    // The key frame sent on the drain is the frame the stream's encoder holds: deltas
    // follow on from it at once.
    let next = slow.readLines().frames
    #expect(next.map { $0["key"] } == [.bool(false)])
    harness.clock.advance(by: 0.1)
    readFast(fast.readLines())
    let after = slow.readLines().frames
    #expect(after.map { $0["key"] } == [.bool(false)])
    rebuilt.merge(try applied(next + after, into: &applier)) { $1 }
    #expect(rebuilt.count >= 4)
    for (seq, frame) in rebuilt {
      #expect(frame == fullFrames[seq], "seq \(seq)")
    }
  }

  @Test func aStreamWithDeltaSubscribersEncodesEachDeltaOnce() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let readers = (0..<3).map { _ in harness.connect() }
    for reader in readers {
      _ = harness.send(
        #"{"op":"subscribe","session":"\#(id)","fps":10,"encoding":"delta"}"#, from: reader)
    }
    harness.clock.advance(by: 0.35)
    let streams = readers.map { $0.readLines().frames }
    #expect(streams[0].count >= 3)
    // Every reader got the same delta lines for the same ticks.
    let tail = streams.map { $0.suffix(2) }
    #expect(tail[0] == tail[1] && tail[1] == tail[2])
    #expect(tail[0].allSatisfy { $0["key"] == .bool(false) })
  }

  @Test func aDeltaSubscriberClosedWhileATickIsSentLeavesTheOthersInStep() throws {
    var limits = ServerLimits()
    limits.subscriberHardLimitBytes = 2_000
    let harness = CoreHarness(limits: limits)
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    // The first subscriber never reads, and is closed by the write that takes it over the
    // hard limit, in the middle of a tick; the two after it read every frame.
    let stalled = harness.connect()
    let readers = (0..<2).map { _ in harness.connect() }
    var appliers = [FrameDeltaApplier](repeating: FrameDeltaApplier(), count: 2)
    var rebuilt: [[Int: JSONValue]] = [[:], [:]]
    let full = harness.connect()
    var fullFrames: [Int: JSONValue] = [:]
    func read() throws {
      for (index, reader) in readers.enumerated() {
        rebuilt[index].merge(try applied(reader.readLines(), into: &appliers[index])) { $1 }
      }
      for frame in full.readLines().frames {
        fullFrames[Int(frame["seq"]?.numberValue ?? -1)] = frame
      }
    }
    let subscribe = #"{"op":"subscribe","session":"\#(id)","fps":10,"encoding":"delta"}"#
    _ = harness.send(subscribe, from: stalled)
    for (index, reader) in readers.enumerated() {
      let reply = harness.send(subscribe, from: reader)
      rebuilt[index] = try applied(reply, into: &appliers[index])
    }
    for frame in harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: full).frames
    {
      fullFrames[Int(frame["seq"]?.numberValue ?? -1)] = frame
    }
    for _ in 0..<20 {
      harness.clock.advance(by: 0.1)
      try read()
    }
    #expect(!stalled.isOpen)
    #expect(harness.core.stats.slowSubscribersDisconnected == 1)
    for frames in rebuilt {
      #expect(frames.count == fullFrames.count)
      for (seq, frame) in frames { #expect(frame == fullFrames[seq], "seq \(seq)") }
    }
  }

  @Test func deltasAloneWhileNoFullSubscriberIsThereStillRebuildTheFrames() throws {
    let harness = CoreHarness()
    let owner = harness.connect()
    // Two sessions begun in the same instant show the same frames: the second one's full
    // subscriber is the reference for the first one's delta subscriber, whose stream has a
    // full subscriber of its own only now and then (between, its ticks write deltas alone).
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let twin = harness.beginCrossfade(from: owner, duration: 10)
    let reference = harness.connect()
    var expected: [Int: JSONValue] = [:]
    func readReference(_ lines: [JSONValue]) {
      for frame in lines.frames {
        var object = frame.objectValue ?? [:]
        object["session"] = .string(id)
        expected[Int(frame["seq"]?.numberValue ?? -1)] = .object(object)
      }
    }
    let reader = harness.connect()
    var applier = FrameDeltaApplier()
    var rebuilt = try applied(
      harness.send(
        #"{"op":"subscribe","session":"\#(id)","fps":10,"encoding":"delta"}"#, from: reader),
      into: &applier)
    readReference(
      harness.send(#"{"op":"subscribe","session":"\#(twin)","fps":10}"#, from: reference))
    var full: FakePeer?
    for tick in 0..<30 {
      if tick % 10 == 3 {
        full = harness.connect()
        _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: full!)
      } else if tick % 10 == 6 {
        full?.disconnect()
        full = nil
      }
      harness.clock.advance(by: 0.1)
      rebuilt.merge(try applied(reader.readLines(), into: &applier)) { $1 }
      readReference(reference.readLines())
      full?.dropUnread()
    }
    #expect(rebuilt.count >= 30)
    #expect(rebuilt.count == expected.count)
    for (seq, frame) in rebuilt { #expect(frame == expected[seq], "seq \(seq)") }
  }
}
