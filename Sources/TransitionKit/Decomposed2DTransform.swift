import Foundation

/// A 2D matrix split as CSS Transforms Level 1 does ("Decomposing a 2D matrix"): translation,
/// scale, rotation angle and the 2×2 remainder.
///
/// In Core Animation's row-vector terms the 2×2 part is `S · R · K`: the scale `S` (one axis
/// negated when the matrix flips handedness), the rotation `R` by `angle`, and the remainder
/// `K` (`m11`, `m12`, `m21`, `m22`; the identity for a matrix made of scales, rotations and
/// translations). The translation is `m41`, `m42` unchanged.
public struct Decomposed2DTransform: Equatable, Sendable {
  public var translationX: Double
  public var translationY: Double
  public var scaleX: Double
  public var scaleY: Double
  /// Radians, in (−π, π] as decomposed.
  public var angle: Double
  public var m11: Double
  public var m12: Double
  public var m21: Double
  public var m22: Double

  /// Decomposes the 2D part of `matrix` (its `m11`, `m12`, `m21`, `m22`, `m41`, `m42`), or
  /// returns nil when it is not invertible (a zero determinant, relative to the rows' lengths)
  /// or not finite.
  public init?(_ matrix: Transform3D) {
    var row0 = (matrix.m11, matrix.m12)
    var row1 = (matrix.m21, matrix.m22)
    let determinant = row0.0 * row1.1 - row0.1 * row1.0
    var scaleX = (row0.0 * row0.0 + row0.1 * row0.1).squareRoot()
    var scaleY = (row1.0 * row1.0 + row1.1 * row1.1).squareRoot()
    guard matrix.m41.isFinite, matrix.m42.isFinite, determinant.isFinite,
      abs(determinant) > 1e-12 * scaleX * scaleY
    else { return nil }
    // A flipped axis: negate the scale of the axis whose unit vectors agree least.
    if determinant < 0 {
      if row0.0 < row1.1 { scaleX = -scaleX } else { scaleY = -scaleY }
    }
    row0 = (row0.0 / scaleX, row0.1 / scaleX)
    row1 = (row1.0 / scaleY, row1.1 / scaleY)
    let angle = atan2(row0.1, row0.0)
    if angle != 0 {
      // Rotate by −angle: [cos, sin; −sin, cos] with cos = row0.0, sin = row0.1 after the
      // normalisation above, applied on the left (K = R(−angle) · N).
      let (sine, cosine) = (-row0.1, row0.0)
      let (n11, n12, n21, n22) = (row0.0, row0.1, row1.0, row1.1)
      row0 = (cosine * n11 + sine * n21, cosine * n12 + sine * n22)
      row1 = (-sine * n11 + cosine * n21, -sine * n12 + cosine * n22)
    }
    self.init(
      translationX: matrix.m41, translationY: matrix.m42, scaleX: scaleX, scaleY: scaleY,
      angle: angle, m11: row0.0, m12: row0.1, m21: row1.0, m22: row1.1)
  }

  public init(
    translationX: Double, translationY: Double, scaleX: Double, scaleY: Double, angle: Double,
    m11: Double = 1, m12: Double = 0, m21: Double = 0, m22: Double = 1
  ) {
    self.translationX = translationX
    self.translationY = translationY
    self.scaleX = scaleX
    self.scaleY = scaleY
    self.angle = angle
    self.m11 = m11
    self.m12 = m12
    self.m21 = m21
    self.m22 = m22
  }

  /// CSS Transforms Level 1 "Interpolation of decomposed 2D matrix values": when one matrix
  /// flips x and the other y, the flip becomes a half turn; the angles are taken the shorter way
  /// round; then every component is blended linearly (extrapolated outside [0, 1]).
  public static func interpolate(
    _ a: Decomposed2DTransform, _ b: Decomposed2DTransform, _ t: Double
  ) -> Decomposed2DTransform {
    var a = a
    var b = b
    if (a.scaleX < 0 && b.scaleY < 0) || (a.scaleY < 0 && b.scaleX < 0) {
      a.scaleX = -a.scaleX
      a.scaleY = -a.scaleY
      a.angle += a.angle < 0 ? .pi : -.pi
    }
    if abs(a.angle - b.angle) > .pi {
      if a.angle > b.angle { a.angle -= 2 * .pi } else { b.angle -= 2 * .pi }
    }
    func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
    return Decomposed2DTransform(
      translationX: mix(a.translationX, b.translationX),
      translationY: mix(a.translationY, b.translationY), scaleX: mix(a.scaleX, b.scaleX),
      scaleY: mix(a.scaleY, b.scaleY), angle: mix(a.angle, b.angle), m11: mix(a.m11, b.m11),
      m12: mix(a.m12, b.m12), m21: mix(a.m21, b.m21), m22: mix(a.m22, b.m22))
  }
}

extension Transform3D {
  /// Recomposes a 2D decomposition: the 2×2 part `S · R · K` and the translation, the rest of
  /// the identity.
  public init(_ parts: Decomposed2DTransform) {
    let (cosine, sine) = (cos(parts.angle), sin(parts.angle))
    // R · K, rows of the row-vector rotation [cos, sin; −sin, cos].
    let r11 = cosine * parts.m11 + sine * parts.m21
    let r12 = cosine * parts.m12 + sine * parts.m22
    let r21 = -sine * parts.m11 + cosine * parts.m21
    let r22 = -sine * parts.m12 + cosine * parts.m22
    var matrix = Transform3D.identity
    matrix.m11 = parts.scaleX * r11
    matrix.m12 = parts.scaleX * r12
    matrix.m21 = parts.scaleY * r21
    matrix.m22 = parts.scaleY * r22
    matrix.m41 = parts.translationX
    matrix.m42 = parts.translationY
    self = matrix
  }
}
