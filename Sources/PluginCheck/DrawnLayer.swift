import TransitionKit

/// The frame a cancelled run ends on: the clock runs to `fraction` of the way, is cancelled,
/// and runs on at 60 ticks a second until it completes.
/// - Returns: whether it completed finished (nil if it did not complete in 1000 ticks) and the
///   frame at its final progress.
public func cancelledFrame(_ timeline: Timeline, after fraction: Double) throws(EngineError) -> (
  finished: Bool?, frame: Frame
) {
  var clock = try TransitionClock(duration: timeline.duration, at: 0)
  let release = fraction * timeline.duration
  _ = clock.advance(to: release)
  try clock.cancel(at: release)
  var completion: TransitionClock.Completion? = nil
  var time = release
  for _ in 0..<1000 where completion == nil {
    time += 1.0 / 60
    completion = clock.advance(to: time)
  }
  return (
    completion?.finished, TimelineEvaluator(timeline).frame(progress: clock.progress(at: time))
  )
}
