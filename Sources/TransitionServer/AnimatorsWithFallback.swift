import PluginValues
import TransitionJSON

/// The animators the core serves: its source's, and the ``FallbackAnimator`` when the source
/// has no animator of its name (`default-slide`), listed last. Here the listing, a `begin`
/// that names it and the routes to it learn whether it stands in; ``TimelineRequest``, its
/// one route, calls it.
final class AnimatorsWithFallback {
  let source: AnimatorSource
  let fallback: FallbackAnimator

  init(_ source: AnimatorSource, fallback: FallbackAnimator) {
    self.source = source
    self.fallback = fallback
  }

  /// Whether the source has none of the fallback's name, so the fallback stands in.
  private var fallbackStandsIn: Bool { source.animator(named: fallback.info.name) == nil }

  /// Whether a `begin` of animator `name` is the fallback's to serve: it names the fallback,
  /// and the source has none of that name.
  func fallbackStandsIn(for name: String) -> Bool {
    name == fallback.info.name && fallbackStandsIn
  }

  var animators: [RegisteredAnimator] {
    let listed = source.animators
    return listed.contains { $0.name == fallback.info.name } ? listed : listed + [fallback.info]
  }

  func animator(named name: String) -> RegisteredAnimator? {
    source.animator(named: name) ?? (name == fallback.info.name ? fallback.info : nil)
  }

  func isQuarantined(_ name: String) -> Bool { source.isQuarantined(name) }

  var listingMembers: [String: JSONValue] { source.listingMembers }
}

@available(*, unavailable) extension AnimatorsWithFallback: Sendable {}
