import PluginValues

/// The animator that serves a `begin` whenever the chosen one cannot: it declined, failed,
/// returned a malformed timeline, timed out, crashed, or its plugin host is down or
/// quarantined it. It runs in the daemon itself, so it is always there (docs/plugins.md,
/// "Isolation"); the daemon links `default-slide` as this.
public protocol FallbackAnimator: AnyObject {
  /// Its listing; the name is `RegisteredAnimator.fallbackName`.
  var info: RegisteredAnimator { get }
  /// Makes the timeline of a validated context, synchronously.
  func makeTimeline(contextJSON: [UInt8]) -> PluginTimelineResult
}
