import TransitionKit
import TransitionWire

/// Evaluates one session's timeline and encodes the frame, into buffers reused from frame to
/// frame: the one evaluate-then-encode step every frame of a session goes through (wall-clock
/// ticks, final frames, virtual frames).
struct FrameRenderer {
  private let evaluator: TimelineEvaluator
  private var frame = Frame()
  private var encoder = FrameEncoder()

  init(timeline: Timeline) {
    evaluator = TimelineEvaluator(timeline)
  }

  /// The `frame` event line of `session` at `progress`, with `t` and `seq` as given.
  mutating func render(session: String, seq: Int, progress: Double, t: Double) -> [UInt8] {
    evaluator.evaluate(progress: progress, time: t, into: &frame)
    return encoder.encode(session: session, seq: seq, frame: frame)
  }
}
