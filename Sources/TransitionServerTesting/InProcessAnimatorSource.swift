import PluginLoader
import PluginValues
import TransitionServer

/// The animators of a `PluginRegistry` loaded in this process, as an ``AnimatorSource`` that
/// answers at once (before `makeTimeline` returns): for tests and the fuzzer, which drive the
/// core without a plugin host process.
public final class InProcessAnimatorSource: AnimatorSource {
  /// The registry the animators come from.
  public let registry: PluginRegistry

  public init(registry: PluginRegistry) {
    self.registry = registry
  }

  public var animators: [RegisteredAnimator] { registry.animators }

  public func animator(named name: String) -> RegisteredAnimator? {
    registry.animator(named: name)
  }

  public func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    completion(registry.makeTimeline(animator: name, contextJSON: contextJSON))
  }
}
