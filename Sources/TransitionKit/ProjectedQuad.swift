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
  public var corners: SIMD8<Double>?
  /// Each corner's homogeneous w, in the corners' order.
  public var w: SIMD4<Double>
  /// When w is the same everywhere (`m14 = m24 = 0` as the frame writes them, `m44 > 0`: a
  /// client's test of the numbers it receives agrees): the affine map `[a, b, c, d, tx, ty]`
  /// (the first six lanes) that sends a point (x, y) of the untransformed box in container
  /// points to `(a·x + c·y + tx, b·x + d·y + ty)`, cairo's `Matrix(a, b, c, d, tx, ty)`. Nil
  /// otherwise.
  public var affine: SIMD8<Double>?

  /// The projected geometry of `layer` (computed in place: nothing is allocated).
  public init(_ layer: LayerState) {
    let m = layer.transform
    let box = layer.frame
    let anchor = layer.anchorPoint
    // Each corner relative to the anchor point.
    let left = box.x - anchor.x
    let right = left + box.width
    let top = box.y - anchor.y
    let bottom = top + box.height
    let x = SIMD4(left, right, right, left)
    let y = SIMD4(top, top, bottom, bottom)
    w = x * m.m14 + y * m.m24 + m.m44
    if all(w .> 0), w.min().isFinite, w.max().isFinite {
      let projectedX = (x * m.m11 + y * m.m21 + m.m41) / w + anchor.x
      let projectedY = (x * m.m12 + y * m.m22 + m.m42) / w + anchor.y
      corners = SIMD8(
        projectedX[0], projectedY[0], projectedX[1], projectedY[1],
        projectedX[2], projectedY[2], projectedX[3], projectedY[3])
    } else {
      corners = nil
    }
    if Self.writesAsZero(m.m14), Self.writesAsZero(m.m24), m.m44 > 0 {
      let (a, b, c, d) = (m.m11 / m.m44, m.m12 / m.m44, m.m21 / m.m44, m.m22 / m.m44)
      affine = SIMD8(
        a, b, c, d,
        anchor.x + m.m41 / m.m44 - a * anchor.x - c * anchor.y,
        anchor.y + m.m42 / m.m44 - b * anchor.x - d * anchor.y, 0, 0)
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

  /// The most bytes ``write(into:)`` writes: the keys, 18 numbers and their punctuation.
  public static let textBound =
    ",\"quad\":,\"quadW\":,\"affine\":".utf8.count + 18 * FixedPrecisionNumber.maximumLength
    + 3 * 2

  /// Writes `,"quad":[8 numbers]|null,"quadW":[4 numbers],"affine":[6 numbers]|null`, the
  /// members a layer of a geometry stream adds after its fields, each number as the frame's
  /// other numbers are written (``TransitionJSON/FixedPrecisionNumber``).
  public func write<Output: FrameTextOutput>(into output: inout Output) {
    output.append(",\"quad\":")
    if let corners {
      Self.writeNumbers(corners, count: 8, into: &output)
    } else {
      output.append("null")
    }
    output.append(",\"quadW\":")
    Self.writeNumbers(w, count: 4, into: &output)
    output.append(",\"affine\":")
    if let affine {
      Self.writeNumbers(affine, count: 6, into: &output)
    } else {
      output.append("null")
    }
  }

  /// Writes the first `count` lanes of `numbers` as a JSON array.
  private static func writeNumbers<Numbers: SIMD, Output: FrameTextOutput>(
    _ numbers: Numbers, count: Int, into output: inout Output
  ) where Numbers.Scalar == Double {
    for index in 0..<count {
      output.appendFixed(numbers[index], prefix: UInt8(ascii: index == 0 ? "[" : ","))
    }
    output.append(UInt8(ascii: "]"))
  }
}
