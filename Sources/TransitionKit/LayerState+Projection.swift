/// Where a layer's points are drawn (docs/renderers.md): the transform applied about the
/// anchor, row vectors, with the perspective divide.
extension LayerState {
  /// The anchor point in container coordinates.
  public var anchorPoint: Point {
    Point(x: frame.x + anchor.x * frame.width, y: frame.y + anchor.y * frame.height)
  }

  /// Where a point of the untransformed layer (container coordinates) is drawn.
  public func project(_ point: Point) -> Point {
    let anchor = anchorPoint
    let moved = transform.apply(x: point.x - anchor.x, y: point.y - anchor.y, z: 0)
    return Point(x: moved.x + anchor.x, y: moved.y + anchor.y)
  }

  /// The point of the untransformed layer (container coordinates) drawn at `drawn`: the
  /// inverse of ``project(_:)`` for a transform that is affine on the layer's plane (`m14`,
  /// `m24` zero and `m44` one: no perspective foreshortening). Nil for a perspective
  /// transform or one that flattens the layer to a line.
  public func unproject(_ drawn: Point) -> Point? {
    guard transform.m14 == 0, transform.m24 == 0, transform.m44 == 1 else { return nil }
    let (a, b, c, d) = (transform.m11, transform.m12, transform.m21, transform.m22)
    let determinant = a * d - b * c
    let scale = max(max(abs(a), abs(b)), max(abs(c), abs(d)))
    guard determinant.isFinite, abs(determinant) > 1e-12 * scale * scale else { return nil }
    let anchor = anchorPoint
    // drawn − anchor − t = [x y] · [[a b] [c d]], solved for [x y].
    let u = drawn.x - anchor.x - transform.m41
    let v = drawn.y - anchor.y - transform.m42
    let x = (u * d - v * c) / determinant
    let y = (v * a - u * b) / determinant
    guard x.isFinite, y.isFinite else { return nil }
    return Point(x: x + anchor.x, y: y + anchor.y)
  }
}
