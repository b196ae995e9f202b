import Foundation

extension Transform3D {
  /// A 2D matrix split as browsers split one before they interpolate it, or nil when the matrix
  /// is not a 2D matrix (`isAffine2D`), is not finite, or is singular (a zero determinant,
  /// relative to the rows' lengths).
  ///
  /// This is the "unmatrix" of CSS Transforms Level 1 as Chromium runs it (`Decompose2d` in
  /// `ui/gfx/geometry`): in CSS's column-vector terms `matrix(a, b, c, d, e, f)` is
  /// `T · R(θ) · [1 K; 0 1] · diag(Sx, Sy)`. The x scale is the length of `(a, b)`, the shear
  /// `K` what `(c, d)` shares with that axis, the y scale the length of the rest, and θ the
  /// angle of `(a, b)`. When the determinant is negative one axis is flipped: x when `a < d`,
  /// y otherwise (a flip of both would be a half turn). The result is a
  /// `DecomposedTransform3D` with the shear in `skew.xy`, z scale 1, a rotation about z and no
  /// perspective, so that a 2D matrix interpolates with a 3D one part by part, as in
  /// Chromium. Only the handling of a flip differs from `decomposed`, which negates all
  /// three scales instead.
  public var decomposed2D: DecomposedTransform3D? {
    guard isAffine2D, m41.isFinite, m42.isFinite else { return nil }
    // CA's rows are CSS's columns: (m11, m12) = (a, b), (m21, m22) = (c, d).
    var (a, b, c, d) = (m11, m12, m21, m22)
    let determinant = a * d - b * c
    let lengthX = (a * a + b * b).squareRoot()
    let lengthY = (c * c + d * d).squareRoot()
    guard determinant.isFinite, lengthX.isFinite, lengthY.isFinite,
      abs(determinant) > 1e-12 * lengthX * lengthY
    else { return nil }
    var signX = 1.0
    var signY = 1.0
    if determinant < 0 {
      if a < d { signX = -1 } else { signY = -1 }
    }
    let scaleX = signX * lengthX
    a /= scaleX
    b /= scaleX
    // The shear times the y scale: what (c, d) shares with the unit x axis.
    let scaledShear = a * c + b * d
    c -= a * scaledShear
    d -= b * scaledShear
    let scaleY = signY * (c * c + d * d).squareRoot()
    let angle = atan2(b, a)
    return DecomposedTransform3D(
      translation: .init(x: m41, y: m42, z: 0),
      scale: .init(x: scaleX, y: scaleY, z: 1),
      skew: .init(xy: scaledShear / scaleY, xz: 0, yz: 0),
      rotation: .init(x: 0, y: 0, z: sin(angle / 2), w: cos(angle / 2)))
  }
}
