import TransitionKit

extension PluginTimelineResult {
  /// Decodes a `.timeline` result into the engine's `Timeline` with TransitionKit's codec
  /// (`Timeline(jsonBytes:)`, the one decoder of timeline bytes, which the daemon also calls).
  ///
  /// Plugin output is untrusted: the codec validates every field.
  /// - Returns: the timeline, or `nil` for `.declined` and `.failed`.
  /// - Throws: `EngineError` when the bytes are not a valid timeline; the daemon reports it
  ///   as the animator's failure.
  public func decodedTimeline() throws(EngineError) -> Timeline? {
    guard case .timeline(let bytes) = self else { return nil }
    return try Timeline(jsonBytes: bytes)
  }
}
