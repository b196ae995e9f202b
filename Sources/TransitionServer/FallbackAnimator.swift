import PluginValues
import TransitionKit

/// The animator that serves a `begin` whenever the chosen one cannot: it declined, failed,
/// returned a malformed timeline, timed out, crashed, or its plugin host is down or
/// quarantined it. It runs in the daemon itself, so it is always there (docs/plugins.md,
/// "Isolation"); the daemon links `default-slide` as this.
public protocol FallbackAnimator: AnyObject {
  /// Its listing; the name is `RegisteredAnimator.fallbackName`.
  var info: RegisteredAnimator { get }
  /// Makes the timeline of a validated context, synchronously: the context the daemon
  /// decoded from the `begin`, as the animator receives it
  /// (``BeginRequest/animatorContext(reduceMotion:)``), never read again from text; the
  /// timeline comes back as the engine's value.
  func makeTimeline(context: TransitionContext) -> AnimatorAnswer
}
