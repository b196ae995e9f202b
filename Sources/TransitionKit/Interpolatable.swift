/// A value the engine can blend between two keyframes.
///
/// `interpolate(from:to:by:)` must return `from` exactly when `t == 0` and `to` exactly when
/// `t == 1` (bit for bit), so that a cancelled transition ends precisely on its initial state;
/// `t` outside [0, 1] extrapolates (overshooting curves use it) and never traps.
public protocol Interpolatable {
  static func interpolate(from: Self, to: Self, by t: Double) -> Self
}

/// Linear interpolation with exact end points.
@inline(__always)
public func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
  if t == 0 { return a }
  if t == 1 { return b }
  return a + (b - a) * t
}

extension Double: Interpolatable {
  public static func interpolate(from: Double, to: Double, by t: Double) -> Double {
    lerp(from, to, t)
  }
}

extension Point: Interpolatable {
  public static func interpolate(from: Point, to: Point, by t: Double) -> Point {
    Point(x: lerp(from.x, to.x, t), y: lerp(from.y, to.y, t))
  }
}

extension Size: Interpolatable {
  public static func interpolate(from: Size, to: Size, by t: Double) -> Size {
    Size(width: lerp(from.width, to.width, t), height: lerp(from.height, to.height, t))
  }
}

extension Rect: Interpolatable {
  public static func interpolate(from: Rect, to: Rect, by t: Double) -> Rect {
    Rect(
      origin: .interpolate(from: from.origin, to: to.origin, by: t),
      size: .interpolate(from: from.size, to: to.size, by: t))
  }
}
