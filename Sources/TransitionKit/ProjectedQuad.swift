import TransitionJSON

/// A layer's projected geometry, for renderers that draw with 2D affine maps
/// (docs/renderers.md, "2D renderers"; `subscribe`'s `"geometry": "quad"`, docs/protocol.md).
///
/// Each corner of the untransformed box, taken relative to the anchor point, goes through the
/// 3×3 reduction of the row-vector matrix: `(x′w, y′w, w) = (x, y, 1) · H`, H = rows
/// `(m11 m12 m14)`, `(m21 m22 m24)`, `(m41 m42 m44)` (z is 0 on the layer's plane), then the
/// anchor point is added back.
public struct ProjectedQuad: Equatable, Sendable {
  /// The layer fields the geometry is derived from (``LayerFieldSchema``): it changes only
  /// when one of them does.
  public static let sources: LayerFields = [.frame, .anchor, .transform]

  /// The corners in container points, top-left, top-right, bottom-right, bottom-left of the
  /// untransformed box, x then y: nil when a corner is at or behind the eye (its w ≤ 0), where
  /// a corner has no place on the screen.
  public var corners: [Double]?
  /// Each corner's homogeneous w, in the corners' order.
  public var w: [Double]
  /// When w is the same everywhere (`m14 = m24 = 0` as the frame writes them, `m44 > 0`: a
  /// client's test of the numbers it receives agrees): the affine map `[a, b, c, d,
  /// tx, ty]` that sends a point (x, y) of the untransformed box in container points to
  /// `(a·x + c·y + tx, b·x + d·y + ty)`, cairo's `Matrix(a, b, c, d, tx, ty)`. Nil otherwise.
  public var affine: [Double]?

  /// The projected geometry of `layer`.
  public init(_ layer: LayerState) {
    let m = layer.transform
    let box = layer.frame
    let anchor = layer.anchorPoint
    let xs = [box.x, box.x + box.width, box.x + box.width, box.x]
    let ys = [box.y, box.y, box.y + box.height, box.y + box.height]
    var corners: [Double] = []
    corners.reserveCapacity(8)
    var w: [Double] = []
    w.reserveCapacity(4)
    var inFront = true
    for index in 0..<4 {
      let x = xs[index] - anchor.x
      let y = ys[index] - anchor.y
      let cornerW = x * m.m14 + y * m.m24 + m.m44
      w.append(cornerW)
      guard cornerW > 0, cornerW.isFinite else {
        inFront = false
        continue
      }
      corners.append((x * m.m11 + y * m.m21 + m.m41) / cornerW + anchor.x)
      corners.append((x * m.m12 + y * m.m22 + m.m42) / cornerW + anchor.y)
    }
    self.corners = inFront ? corners : nil
    self.w = w
    if Self.writesAsZero(m.m14), Self.writesAsZero(m.m24), m.m44 > 0 {
      let (a, b, c, d) = (m.m11 / m.m44, m.m12 / m.m44, m.m21 / m.m44, m.m22 / m.m44)
      affine = [
        a, b, c, d,
        anchor.x + m.m41 / m.m44 - a * anchor.x - c * anchor.y,
        anchor.y + m.m42 / m.m44 - b * anchor.x - d * anchor.y,
      ]
    } else {
      affine = nil
    }
  }

  /// Whether the frame writes `value` as 0 (``TransitionJSON/FixedPrecisionNumber`` rounds it
  /// to its most decimals): a turn of exactly 180° leaves m14 at about 1e-19, which the
  /// frame's `transform` shows as 0.
  static func writesAsZero(_ value: Double) -> Bool {
    value.magnitude < zeroBound
  }

  /// Half the last decimal the frame writes: anything smaller is written 0.
  private static let zeroBound =
    (0..<FixedPrecisionNumber.maximumDecimals).reduce(0.5) { value, _ in value / 10 }

  /// Writes `,"quad":[8 numbers]|null,"quadW":[4 numbers],"affine":[6 numbers]|null`, the
  /// members a layer of a geometry stream adds after its fields, each number as the frame's
  /// other numbers are written (``TransitionJSON/FixedPrecisionNumber``).
  public func write<Output: FrameTextOutput>(into output: inout Output) {
    output.append(",\"quad\":")
    Self.writeNumbers(corners, into: &output)
    output.append(",\"quadW\":")
    Self.writeNumbers(w, into: &output)
    output.append(",\"affine\":")
    Self.writeNumbers(affine, into: &output)
  }

  private static func writeNumbers<Output: FrameTextOutput>(
    _ numbers: [Double]?, into output: inout Output
  ) {
    guard let numbers else { return output.append("null") }
    for (index, number) in numbers.enumerated() {
      output.appendFixed(number, prefix: UInt8(ascii: index == 0 ? "[" : ","))
    }
    output.append(UInt8(ascii: "]"))
  }
}
