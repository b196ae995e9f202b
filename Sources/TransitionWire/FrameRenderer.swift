import TransitionKit

/// Evaluates one session's timeline and encodes the result as a `frame` event: the one
/// evaluate-then-encode path (the server's frame streams, `transition-bench`, tests).
///
/// Each call evaluates once and encodes once into reused storage; the frame contract is
/// docs/protocol.md's (`frame` event) and docs/architecture.md's.
public struct FrameRenderer {
  /// The session the frames belong to, written into every event.
  public let session: String
  /// The evaluator of the session's timeline.
  public let evaluator: TimelineEvaluator
  /// The frame evaluated last.
  public private(set) var frame = Frame()
  private var encoder = FrameEncoder()

  public init(session: String, evaluator: TimelineEvaluator) {
    self.session = session
    self.evaluator = evaluator
  }

  public init(session: String, timeline: Timeline) {
    self.init(session: session, evaluator: TimelineEvaluator(timeline))
  }

  /// The `frame` event at linear `progress`, `\n`-terminated.
  /// - Parameters:
  ///   - seq: the frame's number in its stream.
  ///   - progress: linear progress, clamped to [0, 1].
  ///   - time: the frame's `t` (session time); `progress × duration` when nil.
  public mutating func render(seq: Int, progress: Double, time: Double? = nil) -> [UInt8] {
    evaluator.evaluate(progress: progress, time: time, into: &frame)
    return encoder.encode(session: session, seq: seq, frame: frame)
  }
}
