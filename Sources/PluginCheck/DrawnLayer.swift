import TransitionKit

extension LayerState {
  /// Where a point of the untransformed layer (container coordinates) is drawn: the transform
  /// applied about the anchor, row vectors with the perspective divide (docs/renderers.md).
  public func project(_ point: Point) -> Point {
    let anchorX = frame.x + anchor.x * frame.width
    let anchorY = frame.y + anchor.y * frame.height
    let moved = transform.apply(x: point.x - anchorX, y: point.y - anchorY, z: 0)
    return Point(x: moved.x + anchorX, y: moved.y + anchorY)
  }
}

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
