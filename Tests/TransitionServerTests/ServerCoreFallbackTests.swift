import PluginLoader
import PluginValues
import Testing
import TransitionKit
import TransitionServerTesting

@testable import TransitionServer

/// A `begin` never fails because of a plugin: whatever the chosen animator's call gives (a
/// decline, an error, bad bytes, a fault of the plugin host), the built-in fallback serves it
/// and the reply says why.
@Suite struct ServerCoreFallbackTests {
  /// A source whose every call gives `answer`; the real plugins' listing.
  final class ScriptedSource: AnimatorSource {
    private let inner = InProcessAnimatorSource(registry: CoreHarness.registry)
    var answer: PluginTimelineResult
    init(_ answer: PluginTimelineResult) { self.answer = answer }

    var animators: [RegisteredAnimator] { inner.animators }
    func animator(named name: String) -> RegisteredAnimator? { inner.animator(named: name) }
    func makeTimeline(
      animator name: String, contextJSON: [UInt8],
      completion: @escaping (PluginTimelineResult) -> Void
    ) {
      completion(answer)
    }
  }

  @Test(arguments: [
    (PluginTimelineResult.declined, "declined"),
    (.failed("no"), "failed"),
    (.timeline(Array("{not a timeline".utf8)), "malformed"),
    (.faulted(.timeout, "animator crossfade did not answer within 250 ms"), "timeout"),
    (.faulted(.crashed, "the plugin host exited"), "crashed"),
    (.faulted(.oversized, "too big"), "oversized"),
    (.faulted(.unavailable, "restarting"), "unavailable"),
    (.faulted(.quarantined, "quarantined"), "quarantined"),
  ])
  func everyFailureOfTheChosenAnimatorFallsBackWithItsReason(
    answer: PluginTimelineResult, reason: String
  ) {
    let fallback = RegistryFallback()
    let harness = CoreHarness(animators: ScriptedSource(answer), fallback: fallback)
    let reply = harness.reply(CoreHarness.beginCrossfadeLine(), from: harness.connect())
    #expect(reply["ok"] == .bool(true), "\(reply)")
    #expect(reply["animator"] == .string("default-slide"))
    #expect(reply["fallback"] == .bool(true))
    #expect(reply["fallbackReason"] == .string(reason))
    #expect(reply["fallbackMessage"]?.stringValue?.isEmpty == false)
    #expect(fallback.calls == 1)
  }

  @Test func theChosenAnimatorsOwnTimelineIsNoFallback() {
    let fallback = RegistryFallback()
    let harness = CoreHarness(fallback: fallback)
    let reply = harness.reply(CoreHarness.beginCrossfadeLine(), from: harness.connect())
    #expect(reply["fallback"] == .bool(false))
    #expect(reply["fallbackReason"] == nil)
    #expect(fallback.calls == 0)
  }

  @Test func aTimelineOverMaxSessionSecondsFallsBackAndFailsOnlyWhenTheFallbacksIsToo() {
    var limits = ServerLimits()
    limits.maxSessionSeconds = 0.4
    let harness = CoreHarness(limits: limits)
    // album-flip's own timeline is 1 s; default-slide's push 0.35 s.
    let push =
      #"{"op":"begin","animator":"album-flip","context":{"operation":"push","container":[390,844],"selected":"cover","from":{"layers":[{"id":"cover","frame":[16,107,171,171],"role":"cell"}]},"to":{"layers":[{"id":"photo","frame":[0,94,128,128],"role":"cell"}]}}}"#
    let reply = harness.reply(push, from: harness.connect())
    #expect(reply["fallbackReason"] == .string("overlong"), "\(reply)")
    #expect(reply["animator"] == .string("default-slide"))
  }
}
