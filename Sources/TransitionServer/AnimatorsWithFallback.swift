import PluginValues
import TransitionJSON

/// The animators the core serves: its source's, and the ``FallbackAnimator`` when the source
/// has no animator of its name (`default-slide`), listed last and served in process. The one
/// place besides ``TimelineRequest`` that knows the fallback: a `begin` that names it, the
/// routes to it and the `animators` reply all reach it here.
final class AnimatorsWithFallback: AnimatorSource {
  let source: AnimatorSource
  let fallback: FallbackAnimator

  init(_ source: AnimatorSource, fallback: FallbackAnimator) {
    self.source = source
    self.fallback = fallback
  }

  /// Whether the source has none of the fallback's name, so the fallback stands in.
  private var fallbackStandsIn: Bool { source.animator(named: fallback.info.name) == nil }

  var animators: [RegisteredAnimator] {
    let listed = source.animators
    return listed.contains { $0.name == fallback.info.name } ? listed : listed + [fallback.info]
  }

  func animator(named name: String) -> RegisteredAnimator? {
    source.animator(named: name) ?? (name == fallback.info.name ? fallback.info : nil)
  }

  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    if name == fallback.info.name, fallbackStandsIn {
      completion(fallback.makeTimeline(contextJSON: contextJSON))
      return
    }
    source.makeTimeline(animator: name, contextJSON: contextJSON, completion: completion)
  }

  func isQuarantined(_ name: String) -> Bool { source.isQuarantined(name) }

  var listingMembers: [String: JSONValue] { source.listingMembers }
}

@available(*, unavailable) extension AnimatorsWithFallback: Sendable {}
