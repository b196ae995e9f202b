import PluginLoader
import PluginValues
import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// An animator source that answers later, as a plugin host process will: `begin` replies
/// when the answer comes, and the client's later requests wait for that reply.
@Suite struct ServerCoreAsyncBeginTests {
  /// Holds every answer of the real plugins until ``answerAll()``.
  final class DeferredSource: AnimatorSource {
    private let inner = InProcessAnimatorSource(registry: CoreHarness.registry)
    private var held: [() -> Void] = []

    var animators: [RegisteredAnimator] { inner.animators }
    func animator(named name: String) -> RegisteredAnimator? { inner.animator(named: name) }

    func makeTimeline(
      animator name: String, contextJSON: [UInt8],
      completion: @escaping (PluginTimelineResult) -> Void
    ) {
      let result = CoreHarness.registry.makeTimeline(animator: name, contextJSON: contextJSON)
      held.append { completion(result) }
    }

    var waiting: Int { held.count }

    func answerAll() {
      while !held.isEmpty { held.removeFirst()() }
    }
  }

  @Test func theReplyComesWithTheAnswerAndLaterRequestsKeepTheirOrder() {
    let source = DeferredSource()
    var limits = ServerLimits()
    limits.maxSessions = 1
    let harness = CoreHarness(limits: limits, animators: source)
    let peer = harness.connect()
    #expect(harness.send(CoreHarness.beginCrossfadeLine(extra: #","id":1"#), from: peer).isEmpty)
    #expect(harness.send(#"{"id":2,"op":"sessions"}"#, from: peer).isEmpty)
    #expect(source.waiting == 1)
    // Other clients are served meanwhile; the pending session counts against maxSessions.
    let other = harness.connect()
    #expect(harness.reply(#"{"op":"sessions"}"#, from: other)["sessions"] == .array([]))
    #expect(
      harness.reply(CoreHarness.beginCrossfadeLine(), from: other).errorCode == "limit_exceeded")
    source.answerAll()
    let lines = peer.readLines()
    #expect(lines.map { $0["id"] } == [.number(1), .number(2)])
    #expect(lines[0]["session"] == .string("s1"))
    #expect(lines[1]["sessions"]?.arrayValue?.count == 1)
  }

  @Test func aReplyThatComesLaterLeavesAtOnceEvenWhileFramesAreHeld() throws {
    let source = DeferredSource()
    let harness = CoreHarness(animators: source)
    harness.clock.timerSlack = 0.002
    let peer = harness.connect()
    _ = harness.send(CoreHarness.beginCrossfadeLine(duration: 10), from: peer)
    source.answerAll()
    _ = harness.send(#"{"op":"subscribe","session":"s1","fps":10}"#, from: peer)
    _ = peer.readLines()
    _ = harness.send(CoreHarness.beginCrossfadeLine(extra: #","id":7"#), from: peer)
    // The next tick is rendered and held; then the animator answers the begin.
    let frameClock = try #require(harness.core.frameClocks[10])
    harness.clock.advance(to: frameClock.deadline(1) - 0.001)
    #expect(peer.isHoldingOutput)
    source.answerAll()
    // The reply leaves now, with the held frame ahead of it.
    let lines = peer.readLines()
    #expect(lines.map(\.event) == ["frame", nil])
    #expect(lines.last?["id"] == .number(7))
  }

  @Test func aDeclinedContextFallsBackThroughTheSameAnswerPath() {
    let source = DeferredSource()
    let harness = CoreHarness(animators: source)
    let peer = harness.connect()
    _ = harness.send(
      #"{"op":"begin","context":{"operation":"push","container":[100,200],"from":{"layers":[{"id":"list","frame":[0,0,100,200]}]},"to":{"layers":[{"id":"detail","frame":[0,0,100,200]}]}}}"#,
      from: peer)
    source.answerAll()  // album-flip declines; default-slide is asked
    let reply = peer.readLines().first
    #expect(reply?["animator"] == .string("default-slide"))
    #expect(reply?["fallback"] == .bool(true))
  }

  @Test func anIDTakenWhileTheAnimatorWorkedIsRefused() {
    let source = DeferredSource()
    let harness = CoreHarness(animators: source)
    let a = harness.connect()
    let b = harness.connect()
    _ = harness.send(CoreHarness.beginCrossfadeLine(extra: #","session":"x""#), from: a)
    _ = harness.send(CoreHarness.beginCrossfadeLine(extra: #","session":"x""#), from: b)
    source.answerAll()
    #expect(a.readLines().first?["session"] == .string("x"))
    #expect(b.readLines().first?.errorCode == "bad_request")
    #expect(harness.core.sessionCount == 1)
    // The refused begin no longer counts against the quotas.
    #expect(harness.core.sessionQuota.total == 1)
    #expect(harness.core.sessionQuota.count(client: b.id) == 0)
  }
}
