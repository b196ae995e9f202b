import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import TransitionServer

/// Slow subscribers and the limits of docs/config.md, in the core: coalescing, the soft
/// limit's grace, the hard limit, and the per-server and per-connection counts.
@Suite struct ServerCoreLimitTests {
  @Test func overTheSoftLimitOnlyTheNewestFrameWaitsAndGoesOutOnDrain() {
    let harness = CoreHarness(limits: .changed { $0.subscriberSoftLimitBytes = 1_000 })
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

  @Test func aTickNoSubscriberCanTakeIsNotRenderedAndTheOwedFrameIsRenderedOnDrain() {
    let harness = CoreHarness(limits: .changed { $0.subscriberSoftLimitBytes = 1_000 })
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let slow = harness.connect()
    let slower = harness.connect()
    for reader in [slow, slower] {
      _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":10}"#, from: reader)
    }
    harness.clock.advance(by: 1.05)
    let rendered = harness.core.stats.framesRendered
    let coalesced = harness.core.stats.framesCoalesced
    #expect(coalesced > 0)
    // Both readers are over the limit: five more ticks render nothing, and each drops the
    // frame each reader was owed for a newer one.
    harness.clock.advance(by: 0.5)
    #expect(harness.core.stats.framesRendered == rendered)
    #expect(harness.core.stats.framesCoalesced == coalesced + 10)
    // The reader that drains gets the stream's newest frame, rendered for it alone; the other
    // is still owed it.
    _ = slow.readLines()
    harness.core.peerDrained(slow)
    #expect(slow.readLines().frames.map { $0["seq"] } == [.number(15)])
    #expect(harness.core.stats.framesRendered == rendered + 1)
    // From then on the stream renders again, for the reader that keeps up.
    harness.clock.advance(by: 0.1)
    #expect(slow.readLines().frames.map { $0["seq"] } == [.number(16)])
    #expect(harness.core.stats.framesRendered == rendered + 2)
    #expect(slower.isOpen)
  }

  @Test func overTheSoftLimitForLongerThanTheGraceThePeerIsClosed() {
    let harness = CoreHarness(
      limits: .changed {
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
      limits: .changed {
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
      limits: .changed {
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

    let layers = CoreHarness(limits: .changed { $0.maxLayersPerContext = 1 })
    let tooMany = layers.reply(CoreHarness.beginCrossfadeLine(), from: layers.connect())
    #expect(tooMany.errorCode == "limit_exceeded")
    #expect(tooMany["error"]?["message"]?.stringValue?.contains("maxLayersPerContext") == true)
  }

  @Test func oneUserHasAtMostMaxClientsPerUserConnections() {
    let harness = CoreHarness(limits: .changed { $0.maxClientsPerUser = 1 })
    let first = harness.connect(uid: 1_000)
    let second = harness.connect(uid: 1_000)
    let refusal = second.readLines().first
    #expect(refusal?.errorCode == "limit_exceeded")
    #expect(
      refusal?["error"]?["message"]?.stringValue?.contains("limits.maxClientsPerUser") == true)
    #expect(!second.isOpen)
    #expect(harness.connect(uid: 1_001).isOpen)
    first.close()
    #expect(harness.connect(uid: 1_000).isOpen)
  }

  @Test func sessionsCountPerClientAndPerUserUntilTheyComplete() {
    let harness = CoreHarness(
      limits: .changed {
        $0.maxSessionsPerClient = 1
        $0.maxSessionsPerUser = 2
      })
    let a = harness.connect(uid: 1_000)
    _ = harness.beginCrossfade(from: a)
    let perClient = harness.reply(CoreHarness.beginCrossfadeLine(), from: a)
    #expect(perClient["error"]?["message"]?.stringValue?.contains("maxSessionsPerClient") == true)
    let b = harness.connect(uid: 1_000)
    _ = harness.beginCrossfade(from: b)
    a.close()  // a's session runs on, and still counts against uid 1000
    let perUser = harness.reply(CoreHarness.beginCrossfadeLine(), from: harness.connect(uid: 1_000))
    #expect(perUser["error"]?["message"]?.stringValue?.contains("maxSessionsPerUser") == true)
    #expect(
      harness.reply(CoreHarness.beginCrossfadeLine(), from: harness.connect(uid: 1_001))["ok"]
        == .bool(true))
    harness.clock.advance(by: 1)
    #expect(harness.beginCrossfade(from: harness.connect(uid: 1_000)) != "")
  }

  @Test func aSessionLongerThanMaxSessionSecondsIsRefused() {
    let harness = CoreHarness(limits: .changed { $0.maxSessionSeconds = 0.2 })
    let peer = harness.connect()
    let asked = harness.reply(CoreHarness.beginCrossfadeLine(duration: 0.5), from: peer)
    #expect(asked.errorCode == "limit_exceeded")
    // crossfade's own timeline is 0.3 s.
    let own = harness.reply(
      CoreHarness.beginCrossfadeLine().replacingOccurrences(of: #""duration":0.5,"#, with: ""),
      from: peer)
    #expect(own.errorCode == "limit_exceeded")
    #expect(own["error"]?["message"]?.stringValue?.contains("made a timeline of 0.3 s") == true)
    #expect(harness.core.sessionQuota.total == 0)
  }

  @Test func aLineLeftUnfinishedIsRefusedAndThePeerClosed() {
    let harness = CoreHarness()
    let peer = harness.connect()
    harness.core.peerLeftLineUnfinished(peer, seconds: 10)
    let refusal = peer.readLines().first
    #expect(refusal?.errorCode == "limit_exceeded")
    #expect(
      refusal?["error"]?["message"]?.stringValue?.contains("limits.partialLineSeconds") == true)
    #expect(!peer.isOpen && peer.closedAfterFlush)
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
