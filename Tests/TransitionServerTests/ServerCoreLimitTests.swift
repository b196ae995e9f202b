import Testing
import TransitionKit

@testable import TransitionServer

/// Slow subscribers and the limits of docs/config.md, in the core: coalescing, the soft
/// limit's grace, the hard limit, and the per-server and per-connection counts.
@Suite struct ServerCoreLimitTests {
  private func limits(_ change: (inout ServerLimits) -> Void) -> ServerLimits {
    var limits = ServerLimits()
    change(&limits)
    return limits
  }

  @Test func overTheSoftLimitOnlyTheNewestFrameWaitsAndGoesOutOnDrain() {
    let harness = CoreHarness(limits: limits { $0.subscriberSoftLimitBytes = 1_000 })
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let slow = harness.connect()
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: slow)
    harness.clock.advance(by: 1.05)
    #expect(slow.isOpen)
    let written = slow.readLines().frames
    #expect(written.count < 11)
    #expect(harness.core.stats.framesCoalesced > 0)
    harness.core.peerDrained(slow)
    let waiting = slow.readLines().frames
    #expect(waiting.map { $0["seq"] } == [.number(10)])
    // Frames 0 to 10: frame 0 came with the reply, the rest were written, dropped, or wait.
    #expect(harness.core.stats.framesCoalesced == 10 - written.count - 1)
    harness.clock.advance(by: 0.1)
    #expect(slow.readLines().frames.map { $0["seq"] } == [.number(11)])
  }

  @Test func overTheSoftLimitForLongerThanTheGraceThePeerIsClosed() {
    let harness = CoreHarness(
      limits: limits {
        $0.subscriberSoftLimitBytes = 1_000
        $0.subscriberSoftLimitSeconds = 2
      })
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let slow = harness.connect()
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: slow)
    harness.clock.advance(by: 2)
    #expect(slow.isOpen)
    harness.clock.advance(by: 1)
    #expect(!slow.isOpen)
    #expect(harness.core.stats.slowSubscribersDisconnected == 1)
    #expect(harness.core.clientCount == 1)
    // Its session runs on for its owner.
    #expect(harness.core.sessionCount == 1)
  }

  @Test func overTheHardLimitThePeerIsClosedAtOnce() {
    let harness = CoreHarness(
      limits: limits {
        $0.subscriberSoftLimitBytes = 200
        $0.subscriberHardLimitBytes = 200
      })
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner)
    let slow = harness.connect()
    // The replies fit; the first frame after the subscribe reply does not.
    harness.core.receive(
      line: Array(#"{"op":"subscribe","session":"\#(id)","fps":10}"#.utf8), from: slow)
    #expect(!slow.isOpen)
    #expect(owner.isOpen)
    #expect(harness.core.stats.slowSubscribersDisconnected == 1)
  }

  @Test func countsOfClientsSessionsSubscriptionsAndLayersAreLimited() {
    let harness = CoreHarness(
      limits: limits {
        $0.maxClients = 2
        $0.maxSessions = 1
        $0.maxSubscriptionsPerClient = 1
      })
    let peer = harness.connect()
    _ = harness.connect()
    let refused = harness.connect()
    #expect(refused.readLines().map(\.errorCode) == ["limit_exceeded"])
    #expect(!refused.isOpen && refused.closedAfterFlush)
    #expect(harness.core.clientCount == 2)
    let id = harness.beginCrossfade(from: peer)
    let second = harness.reply(CoreHarness.beginCrossfadeLine(), from: peer)
    #expect(second.errorCode == "limit_exceeded")
    #expect(second["error"]?["message"]?.stringValue?.contains("limits.maxSessions") == true)
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)"}"#, from: peer)
    let more = harness.reply(#"{"op":"subscribe","session":"*"}"#, from: peer)
    #expect(more.errorCode == "limit_exceeded")

    let layers = CoreHarness(limits: limits { $0.maxLayersPerContext = 1 })
    let tooMany = layers.reply(CoreHarness.beginCrossfadeLine(), from: layers.connect())
    #expect(tooMany.errorCode == "limit_exceeded")
    #expect(tooMany["error"]?["message"]?.stringValue?.contains("maxLayersPerContext") == true)
  }

  @Test func shutdownSaysStoppingStopsEveryTimerAndClosesEveryPeerAfterItsOutput() {
    let harness = CoreHarness()
    let a = harness.connect()
    let b = harness.connect()
    let id = harness.beginCrossfade(from: a)
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: b)
    harness.core.shutDown(reason: "test")
    for peer in [a, b] {
      #expect(peer.readLines().last == .object(["event": .string("stopping")]))
      #expect(!peer.isOpen && peer.closedAfterFlush)
    }
    #expect(harness.clock.scheduledTimers.isEmpty)
    let late = harness.connect()
    #expect(!late.isOpen)
    #expect(late.readLines().isEmpty)
  }
}
