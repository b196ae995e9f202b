import TransitionKit

extension PluginTimelineResult {
  /// Decodes a `.timeline` or `.binaryTimeline` result into the engine's `Timeline` with
  /// TransitionKit's codecs (`Timeline(jsonBytes:)`, `Timeline(binary:)`): the one decoding
  /// of timeline bytes, which the daemon calls.
  ///
  /// Plugin output is untrusted: the codecs validate every field.
  /// - Returns: the timeline, or `nil` for `.declined`, `.failed` and `.faulted`.
  /// - Throws: `EngineError` when the bytes are not a valid timeline; the daemon reports it
  ///   as the animator's failure.
  public func decodedTimeline() throws(EngineError) -> Timeline? {
    switch self {
    case .timeline(let bytes): return try Timeline(jsonBytes: bytes)
    case .binaryTimeline(let bytes): return try Timeline(binary: bytes)
    case .declined, .failed, .faulted: return nil
    }
  }
}
