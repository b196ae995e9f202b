import Foundation

/// A transform split into the parts that CSS Transforms Level 2 interpolates separately
/// ("Interpolation of Matrices"): translation, scale, skew, perspective and a rotation
/// quaternion.
///
/// In Core Animation's row-vector terms a decomposed transform stands for
/// `M = S · K · R · T · P`: scale `S` acts first, then the skew `K` (a lower-triangular
/// matrix with `xy` in `m21`, `xz` in `m31` and `yz` in `m32`), the rotation `R`, the
/// translation `T`, and last the perspective `P` (the identity with its fourth column set to
/// `perspective`). `rotation` is the unit quaternion of the geometric rotation with `w ≥ 0`:
/// `Transform3D.rotation(angle: θ, x: 0, y: 1, z: 0)` decomposes to
/// `(0, sin(θ/2), 0, cos(θ/2))` for θ in [0, π].
public struct DecomposedTransform3D: Equatable, Hashable, Sendable {
  /// Three numbers along x, y and z.
  public struct Vector3: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, z: Double
    public init(x: Double, y: Double, z: Double) {
      self.x = x
      self.y = y
      self.z = z
    }
  }

  /// Four numbers: a homogeneous column (`perspective`) or a quaternion (`rotation`).
  public struct Vector4: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, z: Double, w: Double
    public init(x: Double, y: Double, z: Double, w: Double) {
      self.x = x
      self.y = y
      self.z = z
      self.w = w
    }
  }

  /// The shear factors, in the order the CSS decomposition finds them.
  public struct Skew: Equatable, Hashable, Sendable {
    public var xy: Double, xz: Double, yz: Double
    public init(xy: Double, xz: Double, yz: Double) {
      self.xy = xy
      self.xz = xz
      self.yz = yz
    }
  }

  /// Where the origin goes (`m41`, `m42`, `m43` of the normalised matrix).
  public var translation: Vector3
  /// Scale factors along x, y and z; all three are negated when the matrix flips handedness.
  public var scale: Vector3
  public var skew: Skew
  /// The fourth column of the normalised matrix's perspective part; `(0, 0, 0, 1)` for none,
  /// `(0, 0, m34, 1)` for `Transform3D.perspective(m34:)`.
  public var perspective: Vector4
  /// A unit quaternion `(x, y, z, w)` for the rotation, `w ≥ 0` as decomposed.
  public var rotation: Vector4

  public init(
    translation: Vector3 = Vector3(x: 0, y: 0, z: 0),
    scale: Vector3 = Vector3(x: 1, y: 1, z: 1),
    skew: Skew = Skew(xy: 0, xz: 0, yz: 0),
    perspective: Vector4 = Vector4(x: 0, y: 0, z: 0, w: 1),
    rotation: Vector4 = Vector4(x: 0, y: 0, z: 0, w: 1)
  ) {
    self.translation = translation
    self.scale = scale
    self.skew = skew
    self.perspective = perspective
    self.rotation = rotation
  }
}

extension Transform3D {
  /// The transform split into translation, scale, skew, perspective and rotation, or `nil`
  /// when it cannot be decomposed.
  ///
  /// This is the "decomposing a 3D matrix" algorithm of CSS Transforms Level 2, which reads
  /// its matrix in `matrix3d()` order and therefore applies to the `CATransform3D` fields
  /// unchanged. The matrix is first normalised (divided by `m44`), so recomposing gives the
  /// normalised matrix, which maps every point the same way. It cannot be decomposed when a
  /// field is not finite, `m44` is 0, or the upper-left 3×3 part is singular
  /// (`|det| ≤ 1e-12 ·` the product of its row lengths, which includes a zero scale).
  public var decomposed: DecomposedTransform3D? {
    guard isFinite, m44 != 0 else { return nil }
    let n = m44 == 1 ? self : scaledElements(by: 1 / m44)
    guard n.isFinite else { return nil }

    // The upper-left 3×3 part, by rows.
    var row0 = (n.m11, n.m12, n.m13)
    var row1 = (n.m21, n.m22, n.m23)
    var row2 = (n.m31, n.m32, n.m33)
    let volume = dot(row0, cross(row1, row2))
    let bound = length(row0) * length(row1) * length(row2)
    guard volume.isFinite, bound.isFinite, abs(volume) > 1e-12 * bound else { return nil }

    // Perspective: solve A · p = (m14, m24, m34) for the upper 3×3 part A, then
    // p.w = m44 − translation · p (m44 is 1 after normalising).
    var perspective = DecomposedTransform3D.Vector4(x: 0, y: 0, z: 0, w: 1)
    if n.m14 != 0 || n.m24 != 0 || n.m34 != 0 {
      let rhs = (n.m14, n.m24, n.m34)
      // Cramer's rule with the columns of A.
      let col0 = (n.m11, n.m21, n.m31)
      let col1 = (n.m12, n.m22, n.m32)
      let col2 = (n.m13, n.m23, n.m33)
      let detA = dot(col0, cross(col1, col2))
      let px = dot(rhs, cross(col1, col2)) / detA
      let py = dot(col0, cross(rhs, col2)) / detA
      let pz = dot(col0, cross(col1, rhs)) / detA
      perspective = .init(
        x: px, y: py, z: pz, w: n.m44 - (n.m41 * px + n.m42 * py + n.m43 * pz))
    }

    let translation = DecomposedTransform3D.Vector3(x: n.m41, y: n.m42, z: n.m43)

    // Gram–Schmidt on the rows: scale and skew, leaving an orthonormal rotation.
    var scale = DecomposedTransform3D.Vector3(x: length(row0), y: 0, z: 0)
    row0 = scaled(row0, 1 / scale.x)
    var skewXY = dot(row0, row1)
    row1 = combine(row1, row0, -skewXY)
    scale.y = length(row1)
    row1 = scaled(row1, 1 / scale.y)
    skewXY /= scale.y
    var skewXZ = dot(row0, row2)
    row2 = combine(row2, row0, -skewXZ)
    var skewYZ = dot(row1, row2)
    row2 = combine(row2, row1, -skewYZ)
    scale.z = length(row2)
    row2 = scaled(row2, 1 / scale.z)
    skewXZ /= scale.z
    skewYZ /= scale.z

    // A left-handed basis: negate the scales and the rows.
    if dot(row0, cross(row1, row2)) < 0 {
      scale = .init(x: -scale.x, y: -scale.y, z: -scale.z)
      row0 = scaled(row0, -1)
      row1 = scaled(row1, -1)
      row2 = scaled(row2, -1)
    }

    let rotation = quaternion(rows: row0, row1, row2)
    return DecomposedTransform3D(
      translation: translation,
      scale: scale,
      skew: .init(xy: skewXY, xz: skewXZ, yz: skewYZ),
      perspective: perspective,
      rotation: rotation)
  }

  /// Recomposes a decomposed transform: `S · K · R · T · P` in row-vector terms (see
  /// `DecomposedTransform3D`).
  ///
  /// The rotation matrix is built from the quaternion consistently with `decomposed`, so a
  /// decomposable matrix survives the round trip up to rounding (normalised by `m44`). The
  /// quaternion is used as given; pass a unit quaternion.
  public init(_ decomposed: DecomposedTransform3D) {
    let q = decomposed.rotation
    let (x, y, z, w) = (q.x, q.y, q.z, q.w)
    // Rows of the row-vector rotation matrix (the transpose of the usual column form).
    let r0 = (1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
    let r1 = (2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
    let r2 = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))

    // A = S · K · R: row i is scale_i times (skew combination of the rotation rows).
    let k = decomposed.skew
    let s = decomposed.scale
    let a0 = scaled(r0, s.x)
    let a1 = scaled(combine(r1, r0, k.xy), s.y)
    let a2 = scaled(combine(combine(r2, r0, k.xz), r1, k.yz), s.z)

    // [A 0; t 1] · P, where P is the identity with fourth column p.
    let t = decomposed.translation
    let p = decomposed.perspective
    let p3 = (p.x, p.y, p.z)
    self.init(
      m11: a0.0, m12: a0.1, m13: a0.2, m14: dot(a0, p3),
      m21: a1.0, m22: a1.1, m23: a1.2, m24: dot(a1, p3),
      m31: a2.0, m32: a2.1, m33: a2.2, m34: dot(a2, p3),
      m41: t.x, m42: t.y, m43: t.z, m44: dot((t.x, t.y, t.z), p3) + p.w)
  }

  /// Interpolates between two transforms the way browsers interpolate CSS matrices (as
  /// Chromium's `Transform::Blend` does), in Core Animation's field order.
  ///
  /// - Each end is decomposed on its own: a 2D matrix (`isAffine2D`) by `decomposed2D`
  ///   (translation, x and y scale with one axis negated for a flip, a shear factor and an
  ///   angle), any other by the 3D decomposition of CSS Transforms Level 2 (`decomposed`).
  /// - Translation, scale, skew and perspective are blended linearly, the rotation quaternions
  ///   by spherical linear interpolation along the shorter arc (so 2D angles are blended
  ///   linearly the shorter way round), and the result is recomposed. The shear of a 2D matrix
  ///   is blended linearly: halfway from `matrix(1,0,0,7,0,0)` to `matrix(7,0,1,1,0,0)` is
  ///   `matrix(4,0,2,4,0,0)`. A flip stays on its axis: halfway from `matrix(1,0,0,1,100,150)`
  ///   to `matrix(-1,0,0,1,400,150)` is `matrix(0,0,0,1,250,150)`, and halfway from a flip of
  ///   x to a flip of y both scales pass through 0.
  /// - When either transform cannot be decomposed (singular, `m44 == 0`, or not finite) the
  ///   interpolation is discrete, as CSS and Blink do: `a` below `t` = 0.5, `b` from 0.5 on.
  ///
  /// Guarantees: `t == 0` returns `a` and `t == 1` returns `b` bit for bit, and `a == b`
  /// returns `a`; two 2D matrices give a 2D matrix; `t` outside [0, 1] extrapolates every
  /// component (a rotation continues along the same great circle); nothing traps, and the
  /// same inputs give the same bits. A 3D half turn is ambiguous (its axis direction is
  /// decided by rounding); give such an animation an intermediate keyframe.
  public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ t: Double) -> Transform3D {
    if t == 0 { return a }
    if t == 1 { return b }
    if a == b { return a }
    guard let from = a.decomposedForInterpolation, let to = b.decomposedForInterpolation else {
      return t < 0.5 ? a : b
    }
    let blended = DecomposedTransform3D(
      translation: mix(from.translation, to.translation, t),
      scale: mix(from.scale, to.scale, t),
      skew: .init(
        xy: mix(from.skew.xy, to.skew.xy, t),
        xz: mix(from.skew.xz, to.skew.xz, t),
        yz: mix(from.skew.yz, to.skew.yz, t)),
      perspective: .init(
        x: mix(from.perspective.x, to.perspective.x, t),
        y: mix(from.perspective.y, to.perspective.y, t),
        z: mix(from.perspective.z, to.perspective.z, t),
        w: mix(from.perspective.w, to.perspective.w, t)),
      rotation: slerp(from.rotation, to.rotation, t))
    let composed = Transform3D(blended)
    guard a.isAffine2D, b.isAffine2D else { return composed }
    // Two 2D ends: keep the result exactly 2D (no −0 or rounding outside the six fields).
    var flat = Transform3D.identity
    (flat.m11, flat.m12, flat.m21, flat.m22) = (
      composed.m11, composed.m12, composed.m21, composed.m22
    )
    (flat.m41, flat.m42) = (composed.m41, composed.m42)
    return flat
  }

  /// The decomposition `interpolate` blends: `decomposed2D` for a 2D matrix, `decomposed`
  /// for any other.
  private var decomposedForInterpolation: DecomposedTransform3D? {
    isAffine2D ? decomposed2D : decomposed
  }

  /// Whether the transform is a CSS 2D `matrix(a, b, c, d, e, f)`: only `m11`, `m12`, `m21`,
  /// `m22`, `m41` and `m42` may differ from the identity.
  public var isAffine2D: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1
      && m34 == 0 && m43 == 0 && m44 == 1
  }

  /// Linear interpolation of the sixteen fields, `a + (b − a)·t` each (exact at `t` 0 and 1).
  public static func interpolateElements(
    _ a: Transform3D, _ b: Transform3D, _ t: Double
  ) -> Transform3D {
    if t == 0 { return a }
    if t == 1 { return b }
    return Transform3D(
      m11: mix(a.m11, b.m11, t), m12: mix(a.m12, b.m12, t),
      m13: mix(a.m13, b.m13, t), m14: mix(a.m14, b.m14, t),
      m21: mix(a.m21, b.m21, t), m22: mix(a.m22, b.m22, t),
      m23: mix(a.m23, b.m23, t), m24: mix(a.m24, b.m24, t),
      m31: mix(a.m31, b.m31, t), m32: mix(a.m32, b.m32, t),
      m33: mix(a.m33, b.m33, t), m34: mix(a.m34, b.m34, t),
      m41: mix(a.m41, b.m41, t), m42: mix(a.m42, b.m42, t),
      m43: mix(a.m43, b.m43, t), m44: mix(a.m44, b.m44, t))
  }

  /// Every field multiplied by `factor`.
  fileprivate func scaledElements(by factor: Double) -> Transform3D {
    Transform3D(
      m11: m11 * factor, m12: m12 * factor, m13: m13 * factor, m14: m14 * factor,
      m21: m21 * factor, m22: m22 * factor, m23: m23 * factor, m24: m24 * factor,
      m31: m31 * factor, m32: m32 * factor, m33: m33 * factor, m34: m34 * factor,
      m41: m41 * factor, m42: m42 * factor, m43: m43 * factor, m44: m44 * factor)
  }
}

// MARK: - Small vector helpers (tuples keep the hot path free of allocations)

private typealias Triple = (Double, Double, Double)

private func dot(_ a: Triple, _ b: Triple) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }

private func cross(_ a: Triple, _ b: Triple) -> Triple {
  (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
}

private func length(_ a: Triple) -> Double { dot(a, a).squareRoot() }

private func scaled(_ a: Triple, _ factor: Double) -> Triple {
  (a.0 * factor, a.1 * factor, a.2 * factor)
}

/// `a + b · factor`.
private func combine(_ a: Triple, _ b: Triple, _ factor: Double) -> Triple {
  (a.0 + b.0 * factor, a.1 + b.1 * factor, a.2 + b.2 * factor)
}

/// The unit quaternion, with `w ≥ 0`, of the rotation whose row-vector matrix has these
/// orthonormal rows (the transpose of the quaternion's usual column-vector matrix `R`).
///
/// The CSS algorithm takes every component's size from the diagonal and its sign from the
/// antisymmetric part, which loses the signs near a half turn (`w ≈ 0`). This gives the same
/// quaternion by Shepperd's method: the largest component from the diagonal, the others from
/// sums and differences of off-diagonal elements divided by it.
private func quaternion(
  rows row0: Triple, _ row1: Triple, _ row2: Triple
) -> DecomposedTransform3D.Vector4 {
  // R[i][j] is row j's i-th element.
  let (r00, r11, r22) = (row0.0, row1.1, row2.2)
  let (r01, r10) = (row1.0, row0.1)
  let (r02, r20) = (row2.0, row0.2)
  let (r12, r21) = (row2.1, row1.2)
  let fourWW = 1 + r00 + r11 + r22
  let fourXX = 1 + r00 - r11 - r22
  let fourYY = 1 - r00 + r11 - r22
  let fourZZ = 1 - r00 - r11 + r22
  let largest = max(max(fourWW, fourXX), max(fourYY, fourZZ))
  var q: DecomposedTransform3D.Vector4
  if largest == fourWW {
    let w = 0.5 * fourWW.squareRoot()
    let f = 0.25 / w
    q = .init(x: (r21 - r12) * f, y: (r02 - r20) * f, z: (r10 - r01) * f, w: w)
  } else if largest == fourXX {
    let x = 0.5 * fourXX.squareRoot()
    let f = 0.25 / x
    q = .init(x: x, y: (r01 + r10) * f, z: (r02 + r20) * f, w: (r21 - r12) * f)
  } else if largest == fourYY {
    let y = 0.5 * fourYY.squareRoot()
    let f = 0.25 / y
    q = .init(x: (r01 + r10) * f, y: y, z: (r12 + r21) * f, w: (r02 - r20) * f)
  } else {
    let z = 0.5 * fourZZ.squareRoot()
    let f = 0.25 / z
    q = .init(x: (r02 + r20) * f, y: (r12 + r21) * f, z: z, w: (r10 - r01) * f)
  }
  if q.w < 0 { q = .init(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
  return q
}

/// `a + (b − a)·t`; equal ends stay exact.
private func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

private func mix(
  _ a: DecomposedTransform3D.Vector3, _ b: DecomposedTransform3D.Vector3, _ t: Double
) -> DecomposedTransform3D.Vector3 {
  .init(x: mix(a.x, b.x, t), y: mix(a.y, b.y, t), z: mix(a.z, b.z, t))
}

/// Spherical linear interpolation of unit quaternions along the shorter arc; for `t` outside
/// [0, 1] it continues along the same great circle. Nearly equal quaternions fall back to a
/// normalised linear blend.
private func slerp(
  _ a: DecomposedTransform3D.Vector4, _ b: DecomposedTransform3D.Vector4, _ t: Double
) -> DecomposedTransform3D.Vector4 {
  var b = b
  if a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0 {
    b = .init(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
  }
  // The angle between the quaternions, well conditioned near 0 (unlike acos of the dot).
  let dx = a.x - b.x
  let dy = a.y - b.y
  let dz = a.z - b.z
  let dw = a.w - b.w
  let sx = a.x + b.x
  let sy = a.y + b.y
  let sz = a.z + b.z
  let sw = a.w + b.w
  let difference = (dx * dx + dy * dy + dz * dz + dw * dw).squareRoot()
  let sum = (sx * sx + sy * sy + sz * sz + sw * sw).squareRoot()
  let angle = 2 * atan2(difference, sum)
  let sine = sin(angle)
  let weightA: Double
  let weightB: Double
  if sine < 1e-9 {
    weightA = 1 - t
    weightB = t
  } else {
    weightA = sin((1 - t) * angle) / sine
    weightB = sin(t * angle) / sine
  }
  var result = DecomposedTransform3D.Vector4(
    x: a.x * weightA + b.x * weightB,
    y: a.y * weightA + b.y * weightB,
    z: a.z * weightA + b.z * weightB,
    w: a.w * weightA + b.w * weightB)
  let norm =
    (result.x * result.x + result.y * result.y + result.z * result.z
    + result.w * result.w).squareRoot()
  if norm > 0, norm.isFinite {
    result = .init(
      x: result.x / norm, y: result.y / norm, z: result.z / norm, w: result.w / norm)
  }
  return result
}
