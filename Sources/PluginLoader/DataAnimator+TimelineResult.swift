import DataAnimator
import PluginValues

extension DataAnimator {
  /// What the plugin host answers for this animator on a context: the timeline in its binary
  /// form (`Timeline.binaryEncoded`, docs/plugins.md "The host protocol"), a decline or a
  /// failure. The built-in fallback and `check-plugin` answer the same.
  public func timelineResult(forContextJSON contextJSON: some Collection<UInt8>)
    -> PluginTimelineResult
  {
    switch outcome(forContextJSON: contextJSON, encoding: .binary) {
    case .timeline(let bytes): .binaryTimeline(bytes)
    case .declined: .declined
    case .failed(let message): .failed(message)
    }
  }
}
