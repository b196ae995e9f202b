/// What an animator made of a context, still as bytes.
///
/// The bytes of `.timeline` and `.binaryTimeline` are not yet decoded or validated: decode
/// them with TransitionKit's codecs (see `PluginTimelineResult.decodedTimeline()`).
public enum PluginTimelineResult: Equatable, Sendable {
  /// The animator returned a timeline: UTF-8 JSON bytes (schema in docs/plugins.md).
  case timeline([UInt8])
  /// A timeline the plugin host built itself (a data animator's) in its binary form
  /// (`Timeline.binaryEncoded`, docs/plugins.md "The host protocol").
  case binaryTimeline([UInt8])
  /// The animator cannot serve this context; the daemon falls back to
  /// `RegisteredAnimator.fallbackName`.
  case declined
  /// The animator failed, or could not be called; the message is the plugin's own when it
  /// gave one, otherwise the host's. It does not name the animator: the caller reports it as
  /// `animator <name> failed: <message>`.
  case failed(String)
  /// The call never reached the plugin or never came back from it: the host process timed
  /// out, crashed, overflowed, is down, or the plugin is quarantined. The message is the
  /// daemon's, naming the animator.
  case faulted(PluginCallFault, String)
}
