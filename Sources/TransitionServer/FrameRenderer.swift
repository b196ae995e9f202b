import TransitionKit
import TransitionWire

/// Evaluates one session's timeline and encodes the frame, into buffers reused from frame to
/// frame: the one evaluate-then-encode step every frame of a session goes through (wall-clock
/// ticks, final frames, virtual frames).
///
/// The encoded line is lent to a closure rather than returned, so nothing is copied or
/// reference-counted between evaluating a frame and writing it to every subscriber.
struct FrameRenderer {
  private let evaluator: TimelineEvaluator
  private var frame = Frame()
  private var encoder = FrameEncoder()

  init(timeline: Timeline) {
    evaluator = TimelineEvaluator(timeline)
  }

  /// Renders the `frame` event line of `session` at `progress`, with `t` and `seq` as given,
  /// and passes it to `body` (valid only during the call).
  mutating func render(
    session: String, seq: Int, progress: Double, t: Double,
    _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    evaluator.evaluate(progress: progress, time: t, into: &frame)
    encoder.encode(session: session, seq: seq, frame: frame, body)
  }
}
