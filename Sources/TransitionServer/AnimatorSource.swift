import PluginValues
import TransitionJSON
import TransitionKit

/// Where the core gets animators and their timelines: the one interface between the server
/// and the plugins (docs/architecture.md, "The server core").
///
/// The plugins run in the plugin host process (docs/plugins.md, "Isolation"): the daemon's
/// source answers later, when the host has answered, which is why a timeline is delivered
/// through a completion rather than returned. Tests and the fuzzer use the in-process source
/// of TransitionServerTesting, which answers at once.
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
