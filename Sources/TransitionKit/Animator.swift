/// An animator: a named way of turning a transition context into a timeline. Animators
/// written in Swift (on the plugin SDK) and written as data (DataAnimator) both are one.
///
/// A plugin lists its animators in `PluginExport.descriptor(plugin:version:animators:)`; the
/// SDK turns each into a C `transitiond_animator` whose `make_timeline` decodes the context,
/// calls `timeline(for:duration:)` and encodes the result.
public protocol Animator: Sendable {
  /// The animator's name, unique across all loaded plugins: 1 to 64 characters from a-z, 0-9,
  /// `-`, `.`, `_` (for example `album-flip`). Also the prefix of the animator's own layer ids.
  var name: String { get }
  /// The operations the animator serves; never empty.
  var operations: Set<TransitionOperation> { get }
  /// The duration in seconds the daemon lists and uses when the client asks for none.
  var defaultDuration: Double { get }

  /// The duration in seconds of `operation` when the context carries none; by default
  /// `defaultDuration`.
  func defaultDuration(for operation: TransitionOperation) -> Double

  /// Makes the timeline of one transition.
  ///
  /// Called only for an operation in `operations`.
  /// - Parameters:
  ///   - context: the decoded, validated context.
  ///   - duration: the timeline's duration in seconds, finite and positive: the context's
  ///     `duration` member when it has one, otherwise `defaultDuration(for:)`.
  /// - Returns: the timeline, or nil to decline the context (the daemon then falls back to
  ///   `default-slide`).
  /// - Throws: any error, reported to the daemon with its description.
  func timeline(for context: TransitionContext, duration: Double) throws -> Timeline?
}

extension Animator {
  public func defaultDuration(for operation: TransitionOperation) -> Double {
    defaultDuration
  }
}
