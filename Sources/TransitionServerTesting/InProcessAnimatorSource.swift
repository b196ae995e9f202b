import PluginValues
import TransitionServer

/// Animators run in this process, as an ``AnimatorSource`` that answers at once (before
/// `makeTimeline` returns): for tests and the fuzzer, which drive the core without a plugin
/// host process. What the animators are is the caller's: closures over a registry of loaded
/// plugins, over data animator files, or over timelines made by hand.
public final class InProcessAnimatorSource: AnimatorSource {
  /// Makes the timeline of the animator named by its first argument for a context (UTF-8
  /// JSON), as the plugin host would answer it.
  public typealias MakeTimeline = (_ animator: String, _ contextJSON: [UInt8]) ->
    PluginTimelineResult

  private let listing: () -> [RegisteredAnimator]
  private let make: MakeTimeline

  /// - Parameters:
  ///   - listing: The animators, in load order; read on every call, so a listing that
  ///     changes (a registry rescanned) is seen.
  ///   - makeTimeline: Answers a timeline request, at once.
  public init(
    listing: @escaping () -> [RegisteredAnimator], makeTimeline: @escaping MakeTimeline
  ) {
    self.listing = listing
    make = makeTimeline
  }

  public var animators: [RegisteredAnimator] { listing() }

  public func animator(named name: String) -> RegisteredAnimator? {
    listing().first { $0.name == name }
  }

  public func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    completion(make(name, contextJSON))
  }
}

@available(*, unavailable) extension InProcessAnimatorSource: Sendable {}
