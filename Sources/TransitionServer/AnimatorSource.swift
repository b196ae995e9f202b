import PluginLoader
import TransitionJSON
import TransitionKit

/// Where the core gets animators and their timelines: the one interface between the server
/// and the plugins (docs/architecture.md, "The server core").
///
/// Today the plugins run in the daemon's process (``InProcessAnimatorSource``); a plugin host
/// process can answer later through the same interface, which is why a timeline is delivered
/// through a completion rather than returned.
public protocol AnimatorSource: AnyObject {
  /// Every loaded animator, in load order.
  var animators: [RegisteredAnimator] { get }
  /// The loaded animator called `name`, if any.
  func animator(named name: String) -> RegisteredAnimator?
  /// Asks the animator called `name` for the timeline of a context.
  ///
  /// - Parameters:
  ///   - name: The animator.
  ///   - contextJSON: The validated context as UTF-8 JSON (docs/plugins.md).
  ///   - completion: Runs exactly once with the answer, on the core's thread; it may run
  ///     before this method returns.
  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void)
  /// Whether calls to the animator called `name` are refused (its plugin is quarantined);
  /// it is still listed, and `begin` falls back.
  func isQuarantined(_ name: String) -> Bool
  /// Members added to the `animators` reply about where the animators run (the plugin host's
  /// state, the quarantined libraries); empty by default.
  var listingMembers: [String: JSONValue] { get }
}

extension AnimatorSource {
  public func isQuarantined(_ name: String) -> Bool { false }
  public var listingMembers: [String: JSONValue] { [:] }
}

/// The animators of a ``PluginRegistry`` in this process: answers at once.
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
