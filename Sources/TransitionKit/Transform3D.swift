import Foundation

/// A 4×4 homogeneous transform with Core Animation's `CATransform3D` semantics.
///
/// Points are row vectors and are transformed as `p' = [x y z 1] · M`: translation lives in
/// `m41`, `m42`, `m43` and perspective in `m34` (a point's `w` is
/// `x·m14 + y·m24 + z·m34 + m44`). The field order `m11, m12, …, m44` is also the argument
/// order of CSS `matrix3d()`, so `elements` can be handed to a renderer unchanged.
///
/// `a.concatenating(b)` is `CATransform3DConcat(a, b)`, the product `a · b`: `a` acts first,
/// then `b`. The `…By` methods prepend their operation the way `CATransform3DTranslate`,
/// `CATransform3DScale` and `CATransform3DRotate` do.
public struct Transform3D: Equatable, Hashable, Sendable {
  public var m11: Double, m12: Double, m13: Double, m14: Double
  public var m21: Double, m22: Double, m23: Double, m24: Double
  public var m31: Double, m32: Double, m33: Double, m34: Double
  public var m41: Double, m42: Double, m43: Double, m44: Double

  /// Creates a transform from all sixteen fields (row `i`, column `j` is `mij`).
  public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    self.m11 = m11
    self.m12 = m12
    self.m13 = m13
    self.m14 = m14
    self.m21 = m21
    self.m22 = m22
    self.m23 = m23
    self.m24 = m24
    self.m31 = m31
    self.m32 = m32
    self.m33 = m33
    self.m34 = m34
    self.m41 = m41
    self.m42 = m42
    self.m43 = m43
    self.m44 = m44
  }

  /// The names of the sixteen fields in `elements` order, used in error messages.
  static let elementNames = [
    "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
    "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44",
  ]

  /// Creates a transform from sixteen numbers in `CATransform3D` field order
  /// (`m11, m12, …, m44`), which is also CSS `matrix3d()` argument order.
  ///
  /// - Parameter elements: exactly 16 finite numbers.
  /// - Throws: `EngineError` `invalidValue` when there are not 16 numbers, `nonFinite` naming
  ///   the first NaN or infinite element by index and field (`elements[11] (m34)`).
  public init(elements: [Double]) throws(EngineError) {
    guard elements.count == 16 else {
      throw EngineError(
        .invalidValue, "a transform needs 16 elements (m11 … m44), got \(elements.count)")
    }
    for (index, value) in elements.enumerated() {
      try EngineError.requireFinite(value, "elements[\(index)] (\(Self.elementNames[index]))")
    }
    self.init(
      m11: elements[0], m12: elements[1], m13: elements[2], m14: elements[3],
      m21: elements[4], m22: elements[5], m23: elements[6], m24: elements[7],
      m31: elements[8], m32: elements[9], m33: elements[10], m34: elements[11],
      m41: elements[12], m42: elements[13], m43: elements[14], m44: elements[15])
  }

  /// The sixteen fields in `CATransform3D` order (`m11, m12, …, m44`), which is CSS
  /// `matrix3d()` argument order. Allocates; meant for encoding and tests.
  public var elements: [Double] {
    [
      m11, m12, m13, m14, m21, m22, m23, m24,
      m31, m32, m33, m34, m41, m42, m43, m44,
    ]
  }

  /// The largest magnitude of the sixteen fields, NaN when one is NaN; read field by field
  /// (no array), as timelines are checked on every `begin`.
  public var largestMagnitude: Double {
    let fields: InlineArray<16, Double> = [
      m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44,
    ]
    var largest = 0.0
    for index in fields.indices {
      if fields[index].isNaN { return .nan }
      largest = max(largest, fields[index].magnitude)
    }
    return largest
  }

  /// Whether every entry has a magnitude of at most `bound` (false when one is NaN): what
  /// `largestMagnitude <= bound` says, in a few vector comparisons (a timeline's validation
  /// asks it of every matrix).
  public func isWithin(_ bound: Double) -> Bool {
    // The sixteen doubles lie side by side; which lane holds which entry does not matter.
    withUnsafeBytes(of: self) { raw in
      let low = raw.loadUnaligned(as: SIMD8<Double>.self)
      let high = raw.loadUnaligned(fromByteOffset: 64, as: SIMD8<Double>.self)
      let limit = SIMD8(repeating: bound)
      // A NaN entry compares false both ways: not within.
      return all((low .<= limit) .& (low .>= -limit) .& (high .<= limit) .& (high .>= -limit))
    }
  }

  /// The transform that leaves every point where it is.
  public static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

  /// Whether every field equals the identity's (`-0.0` counts as `0`).
  public var isIdentity: Bool { self == .identity }

  /// Whether the transform has no perspective part (`m14 = m24 = m34 = 0`, `m44 = 1`), so that
  /// it maps points without a perspective divide.
  public var isAffine: Bool { m14 == 0 && m24 == 0 && m34 == 0 && m44 == 1 }

  /// Whether the transform only scales along x and y and moves in the plane: every field is
  /// the identity's (`-0.0` counting as `0`) but `m11`, `m22`, `m41` and `m42`.
  @inlinable @inline(__always)
  public var isPlanarScaleAndTranslation: Bool {
    m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m23 == 0 && m24 == 0 && m31 == 0
      && m32 == 0 && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
  }

  // MARK: - Constructors

  /// A translation by `(x, y, z)`, as `CATransform3DMakeTranslation`: `m41 = x`, `m42 = y`,
  /// `m43 = z`.
  public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
    var result = Transform3D.identity
    result.m41 = x
    result.m42 = y
    result.m43 = z
    return result
  }

  /// A scale by `(x, y, z)` about the origin, as `CATransform3DMakeScale`: the diagonal
  /// `m11 = x`, `m22 = y`, `m33 = z`.
  public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
    var result = Transform3D.identity
    result.m11 = x
    result.m22 = y
    result.m33 = z
    return result
  }

  /// A rotation by `angle` radians about the axis `(x, y, z)` through the origin, as
  /// `CATransform3DMakeRotation`.
  ///
  /// The rotation is right-handed: for the z axis `m11 = cos`, `m12 = sin`, `m21 = −sin`,
  /// `m22 = cos`, so `(1, 0, 0)` maps to `(cos, sin, 0)`; for the y axis `m13 = −sin` and
  /// `m31 = sin`. The axis need not be a unit vector; an axis whose length is zero or not
  /// finite gives the identity.
  public static func rotation(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return .identity }
    let (ux, uy, uz) = (x / length, y / length, z / length)
    let c = cos(angle)
    let s = sin(angle)
    let t = 1 - c
    // The diagonal is written as u² + (1 − u²)·c so that an axis-aligned rotation keeps an
    // exact 1 on its axis.
    return Transform3D(
      m11: ux * ux + (1 - ux * ux) * c, m12: ux * uy * t + uz * s, m13: ux * uz * t - uy * s,
      m14: 0,
      m21: ux * uy * t - uz * s, m22: uy * uy + (1 - uy * uy) * c, m23: uy * uz * t + ux * s,
      m24: 0,
      m31: ux * uz * t + uy * s, m32: uy * uz * t - ux * s, m33: uz * uz + (1 - uz * uz) * c,
      m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// The identity with `m34` set: the usual way to give a layer perspective, for example
  /// `-1 / 500` for an eye 500 points in front of the plane `z = 0`.
  public static func perspective(m34: Double) -> Transform3D {
    var result = Transform3D.identity
    result.m34 = m34
    return result
  }

  // MARK: - Composition

  /// The product `self · other`, as `CATransform3DConcat(self, other)`: with row vectors,
  /// `self` acts first, then `other`. Allocation-free.
  @inlinable
  public func concatenating(_ other: Transform3D) -> Transform3D {
    let b = other
    return Transform3D(
      m11: m11 * b.m11 + m12 * b.m21 + m13 * b.m31 + m14 * b.m41,
      m12: m11 * b.m12 + m12 * b.m22 + m13 * b.m32 + m14 * b.m42,
      m13: m11 * b.m13 + m12 * b.m23 + m13 * b.m33 + m14 * b.m43,
      m14: m11 * b.m14 + m12 * b.m24 + m13 * b.m34 + m14 * b.m44,
      m21: m21 * b.m11 + m22 * b.m21 + m23 * b.m31 + m24 * b.m41,
      m22: m21 * b.m12 + m22 * b.m22 + m23 * b.m32 + m24 * b.m42,
      m23: m21 * b.m13 + m22 * b.m23 + m23 * b.m33 + m24 * b.m43,
      m24: m21 * b.m14 + m22 * b.m24 + m23 * b.m34 + m24 * b.m44,
      m31: m31 * b.m11 + m32 * b.m21 + m33 * b.m31 + m34 * b.m41,
      m32: m31 * b.m12 + m32 * b.m22 + m33 * b.m32 + m34 * b.m42,
      m33: m31 * b.m13 + m32 * b.m23 + m33 * b.m33 + m34 * b.m43,
      m34: m31 * b.m14 + m32 * b.m24 + m33 * b.m34 + m34 * b.m44,
      m41: m41 * b.m11 + m42 * b.m21 + m43 * b.m31 + m44 * b.m41,
      m42: m41 * b.m12 + m42 * b.m22 + m43 * b.m32 + m44 * b.m42,
      m43: m41 * b.m13 + m42 * b.m23 + m43 * b.m33 + m44 * b.m43,
      m44: m41 * b.m14 + m42 * b.m24 + m43 * b.m34 + m44 * b.m44)
  }

  /// `self · scale(x, y)` (``concatenating(_:)`` with ``scale(x:y:z:)``) without the
  /// multiplications by the scale's zeros: the first two columns scaled. The same numbers as
  /// the full product of finite matrices (a zero may differ in sign, which no frame shows).
  mutating func concatenateScale(x: Double, y: Double) {
    m11 *= x
    m21 *= x
    m31 *= x
    m41 *= x
    m12 *= y
    m22 *= y
    m32 *= y
    m42 *= y
  }

  /// `self · translation(x, y, z)` without the multiplications by the translation's zeros
  /// and ones: each row gains its `m_i4` times the translation. The same numbers as the full
  /// product of finite matrices (a zero may differ in sign).
  mutating func concatenateTranslation(x: Double, y: Double, z: Double) {
    m11 = m11 + m14 * x
    m12 = m12 + m14 * y
    m13 = m13 + m14 * z
    m21 = m21 + m24 * x
    m22 = m22 + m24 * y
    m23 = m23 + m24 * z
    m31 = m31 + m34 * x
    m32 = m32 + m34 * y
    m33 = m33 + m34 * z
    m41 = m41 + m44 * x
    m42 = m42 + m44 * y
    m43 = m43 + m44 * z
  }

  /// `self · perspective(m34)` without the multiplications by its zeros and ones: the fourth
  /// column gains the third times `m34`. The same numbers as the full product of finite
  /// matrices (a zero may differ in sign).
  mutating func concatenatePerspective(m34 p: Double) {
    m14 = m13 * p + m14
    m24 = m23 * p + m24
    m34 = m33 * p + m34
    m44 = m43 * p + m44
  }

  /// `translation(x, y, z) · self`, as `CATransform3DTranslate(self, x, y, z)`: the
  /// translation acts first, then `self`.
  public func translatedBy(x: Double, y: Double, z: Double = 0) -> Transform3D {
    var result = self
    result.m41 = x * m11 + y * m21 + z * m31 + m41
    result.m42 = x * m12 + y * m22 + z * m32 + m42
    result.m43 = x * m13 + y * m23 + z * m33 + m43
    result.m44 = x * m14 + y * m24 + z * m34 + m44
    return result
  }

  /// `scale(x, y, z) · self`, as `CATransform3DScale(self, x, y, z)`: the scale acts first,
  /// then `self`.
  public func scaledBy(x: Double, y: Double, z: Double = 1) -> Transform3D {
    var result = self
    result.m11 *= x
    result.m12 *= x
    result.m13 *= x
    result.m14 *= x
    result.m21 *= y
    result.m22 *= y
    result.m23 *= y
    result.m24 *= y
    result.m31 *= z
    result.m32 *= z
    result.m33 *= z
    result.m34 *= z
    return result
  }

  /// `rotation(angle, x, y, z) · self`, as `CATransform3DRotate(self, angle, x, y, z)`: the
  /// rotation acts first, then `self`. A zero axis leaves `self` unchanged.
  public func rotatedBy(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D.rotation(angle: angle, x: x, y: y, z: z).concatenating(self)
  }

  /// This transform applied about the point `(anchorX, anchorY, anchorZ)` instead of the
  /// origin: `translation(−anchor) · self · translation(+anchor)`.
  ///
  /// This is how Core Animation applies a layer's `transform` about its anchor point; the
  /// anchor is given in the coordinates the transform acts on (for a layer in container
  /// coordinates, `frame.origin + anchor · frame.size`). Allocation-free.
  @inlinable
  public func about(anchorX: Double, anchorY: Double, anchorZ: Double = 0) -> Transform3D {
    // translation(−a) · self changes only the last row.
    var result = self
    result.m41 = m41 - anchorX * m11 - anchorY * m21 - anchorZ * m31
    result.m42 = m42 - anchorX * m12 - anchorY * m22 - anchorZ * m32
    result.m43 = m43 - anchorX * m13 - anchorY * m23 - anchorZ * m33
    result.m44 = m44 - anchorX * m14 - anchorY * m24 - anchorZ * m34
    // (…) · translation(+a) adds column 4 times the anchor to the first three columns.
    result.m11 += result.m14 * anchorX
    result.m12 += result.m14 * anchorY
    result.m13 += result.m14 * anchorZ
    result.m21 += result.m24 * anchorX
    result.m22 += result.m24 * anchorY
    result.m23 += result.m24 * anchorZ
    result.m31 += result.m34 * anchorX
    result.m32 += result.m34 * anchorY
    result.m33 += result.m34 * anchorZ
    result.m41 += result.m44 * anchorX
    result.m42 += result.m44 * anchorY
    result.m43 += result.m44 * anchorZ
    return result
  }

  // MARK: - Inverse

  /// The 2×2 minors of the top two rows (`s`) and of the bottom two rows (`c`): the Laplace
  /// expansion that both `determinant` and `inverted` are built from.
  private struct LaplaceMinors {
    let s0, s1, s2, s3, s4, s5: Double
    let c0, c1, c2, c3, c4, c5: Double

    init(_ m: Transform3D) {
      s0 = m.m11 * m.m22 - m.m21 * m.m12
      s1 = m.m11 * m.m23 - m.m21 * m.m13
      s2 = m.m11 * m.m24 - m.m21 * m.m14
      s3 = m.m12 * m.m23 - m.m22 * m.m13
      s4 = m.m12 * m.m24 - m.m22 * m.m14
      s5 = m.m13 * m.m24 - m.m23 * m.m14
      c5 = m.m33 * m.m44 - m.m43 * m.m34
      c4 = m.m32 * m.m44 - m.m42 * m.m34
      c3 = m.m32 * m.m43 - m.m42 * m.m33
      c2 = m.m31 * m.m44 - m.m41 * m.m34
      c1 = m.m31 * m.m43 - m.m41 * m.m33
      c0 = m.m31 * m.m42 - m.m41 * m.m32
    }

    var determinant: Double {
      s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }
  }

  /// The determinant of the full 4×4 matrix.
  public var determinant: Double { LaplaceMinors(self).determinant }

  /// The inverse transform, or `nil` when the matrix is singular.
  ///
  /// Singular means the determinant is zero, not finite, or tiny next to the matrix's size
  /// (`|det| ≤ 1e-14 · max|mij|⁴`), or the inverse would not be finite.
  public var inverted: Transform3D? {
    guard isFinite else { return nil }
    let minors = LaplaceMinors(self)
    let (s0, s1, s2, s3, s4, s5) = (
      minors.s0, minors.s1, minors.s2, minors.s3, minors.s4, minors.s5
    )
    let (c0, c1, c2, c3, c4, c5) = (
      minors.c0, minors.c1, minors.c2, minors.c3, minors.c4, minors.c5
    )
    let det = minors.determinant
    let size = maxMagnitude
    guard det.isFinite, det != 0 else { return nil }
    let sizeSquared = size * size
    guard abs(det) > 1e-14 * sizeSquared * sizeSquared else { return nil }
    let r = 1 / det
    let result = Transform3D(
      m11: (m22 * c5 - m23 * c4 + m24 * c3) * r,
      m12: (-m12 * c5 + m13 * c4 - m14 * c3) * r,
      m13: (m42 * s5 - m43 * s4 + m44 * s3) * r,
      m14: (-m32 * s5 + m33 * s4 - m34 * s3) * r,
      m21: (-m21 * c5 + m23 * c2 - m24 * c1) * r,
      m22: (m11 * c5 - m13 * c2 + m14 * c1) * r,
      m23: (-m41 * s5 + m43 * s2 - m44 * s1) * r,
      m24: (m31 * s5 - m33 * s2 + m34 * s1) * r,
      m31: (m21 * c4 - m22 * c2 + m24 * c0) * r,
      m32: (-m11 * c4 + m12 * c2 - m14 * c0) * r,
      m33: (m41 * s4 - m42 * s2 + m44 * s0) * r,
      m34: (-m31 * s4 + m32 * s2 - m34 * s0) * r,
      m41: (-m21 * c3 + m22 * c1 - m23 * c0) * r,
      m42: (m11 * c3 - m12 * c1 + m13 * c0) * r,
      m43: (-m41 * s3 + m42 * s1 - m43 * s0) * r,
      m44: (m31 * s3 - m32 * s1 + m33 * s0) * r)
    return result.isFinite ? result : nil
  }

  /// The largest magnitude among the sixteen fields (meaningful when all are finite).
  var maxMagnitude: Double {
    let row1 = max(max(abs(m11), abs(m12)), max(abs(m13), abs(m14)))
    let row2 = max(max(abs(m21), abs(m22)), max(abs(m23), abs(m24)))
    let row3 = max(max(abs(m31), abs(m32)), max(abs(m33), abs(m34)))
    let row4 = max(max(abs(m41), abs(m42)), max(abs(m43), abs(m44)))
    return max(max(row1, row2), max(row3, row4))
  }

  /// Whether all sixteen fields are finite.
  public var isFinite: Bool {
    m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite
      && m21.isFinite && m22.isFinite && m23.isFinite && m24.isFinite
      && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite
      && m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
  }

  // MARK: - Mapping points

  /// The homogeneous image `[x y z 1] · M` of a point, before the perspective divide.
  public func homogeneous(x: Double, y: Double, z: Double = 0) -> (
    x: Double, y: Double, z: Double, w: Double
  ) {
    (
      x * m11 + y * m21 + z * m31 + m41,
      x * m12 + y * m22 + z * m32 + m42,
      x * m13 + y * m23 + z * m33 + m43,
      x * m14 + y * m24 + z * m34 + m44
    )
  }

  /// The smallest `|w|` that `apply` divides by.
  public static let minimumProjectiveW = 1e-12

  /// Maps a point: `[x y z 1] · M`, then divides by `w` (the perspective divide).
  ///
  /// A point on or near the eye's plane has `w` close to 0. Instead of dividing by (almost)
  /// zero, `apply` divides by `±minimumProjectiveW` (keeping the sign of `w`, `+` when `w` is
  /// 0), so finite input far from the overflow range maps to a finite, very distant point in
  /// the right direction rather than to infinity or NaN. Points behind the eye (`w < 0`) are
  /// divided as they are; clipping them is the renderer's business (`homogeneous` gives the
  /// undivided coordinates).
  public func apply(x: Double, y: Double, z: Double = 0) -> (x: Double, y: Double, z: Double) {
    let p = homogeneous(x: x, y: y, z: z)
    if p.w == 1 { return (p.x, p.y, p.z) }
    var w = p.w
    if abs(w) < Self.minimumProjectiveW {
      w = w < 0 ? -Self.minimumProjectiveW : Self.minimumProjectiveW
    }
    return (p.x / w, p.y / w, p.z / w)
  }
}
