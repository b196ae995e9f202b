/// A finger's path for a scripted drag: points in container points, walked at a constant speed
/// over `duration` seconds, sampled at a display's rate, and let go with the path's velocity
/// (`transitionctl drive SESSION --drag`).
public struct DragPath: Equatable, Sendable {
  /// One touch of the replay: when it is sent, counted from the first, and where the finger is.
  public struct Sample: Equatable, Sendable {
    public let time: Double
    public let point: TouchPoint
  }

  /// The path's corners, two or more.
  public let points: [TouchPoint]
  /// Seconds from the first point to the last, in (0, 60].
  public let duration: Double

  /// The most points a path may have.
  public static let maximumPoints = 64

  /// A path through `points` (two to ``maximumPoints``) taking `duration` seconds.
  ///
  /// - Returns: Nil when there are too few or too many points, a coordinate is not finite, or
  ///   `duration` is outside (0, 60].
  public init?(points: [TouchPoint], duration: Double) {
    guard (2...Self.maximumPoints).contains(points.count), duration > 0, duration <= 60,
      points.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
    else { return nil }
    self.points = points
    self.duration = duration
  }

  /// The points of `X0,Y0:X1,Y1[:X2,Y2…]`, or nil when the text is not that.
  public static func points(_ text: String) -> [TouchPoint]? {
    var points: [TouchPoint] = []
    for corner in text.split(separator: ":", omittingEmptySubsequences: false) {
      let parts = corner.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
        x.isFinite, y.isFinite, abs(x) <= 1e6, abs(y) <= 1e6
      else { return nil }
      points.append(TouchPoint(x: x, y: y))
    }
    return points
  }

  /// The path's length in points.
  public var length: Double {
    zip(points, points.dropFirst()).reduce(0) { sum, segment in
      sum + Self.distance(segment.0, segment.1)
    }
  }

  /// Where the finger is `time` seconds after the first point: at a constant speed along the
  /// path, the first point before 0 and the last after `duration`.
  public func point(at time: Double) -> TouchPoint {
    let total = length
    guard total > 0, time > 0 else { return points[0] }
    var remaining = min(time / duration, 1) * total
    for (from, to) in zip(points, points.dropFirst()) {
      let segment = Self.distance(from, to)
      if remaining <= segment, segment > 0 {
        let share = remaining / segment
        return TouchPoint(x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share)
      }
      remaining -= segment
    }
    return points[points.count - 1]
  }

  /// The touches sent at `rate` Hz: one at time 0, one every 1/`rate` s, and one at exactly
  /// `duration` (so the finger ends on the last point), in time order.
  public func samples(rate: Double) -> [Sample] {
    let steps = max(1, Int((duration * rate).rounded(.up)))
    return (0...steps).map { step in
      let time = step == steps ? duration : Double(step) / rate
      return Sample(time: time, point: point(at: time))
    }
  }

  /// The finger's velocity as it lets go, in points per second: the path's speed along its
  /// last segment's direction (zero for a path that does not move).
  public var releaseVelocity: TouchPoint {
    let segments = Array(zip(points, points.dropFirst()))
    guard let last = segments.last(where: { Self.distance($0.0, $0.1) > 0 }) else {
      return TouchPoint(x: 0, y: 0)
    }
    let segment = Self.distance(last.0, last.1)
    let speed = length / duration
    return TouchPoint(
      x: (last.1.x - last.0.x) / segment * speed, y: (last.1.y - last.0.y) / segment * speed)
  }

  private static func distance(_ a: TouchPoint, _ b: TouchPoint) -> Double {
    ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
  }
}
