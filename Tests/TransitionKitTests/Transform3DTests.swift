import Foundation
import Testing
import TransitionKit

/// A seeded SplitMix64 generator, so every run draws the same "random" matrices.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }
}

private func degrees(_ value: Double) -> Double { value * .pi / 180 }

/// Whether every field of `a` is within `tolerance` of `b`'s.
private func close(_ a: Transform3D, _ b: Transform3D, tolerance: Double = 1e-12) -> Bool {
  zip(a.elements, b.elements).allSatisfy { abs($0 - $1) <= tolerance }
}

private func close(_ a: Double, _ b: Double, tolerance: Double = 1e-12) -> Bool {
  abs(a - b) <= tolerance
}

private func sameBits(_ a: Transform3D, _ b: Transform3D) -> Bool {
  a.elements.map(\.bitPattern) == b.elements.map(\.bitPattern)
}

/// The textbook 4×4 product over the `elements` arrays (row `i` of `a` times column `j` of `b`),
/// an independent reference for `concatenating`.
private func referenceProduct(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
  let x = a.elements
  let y = b.elements
  var out = [Double](repeating: 0, count: 16)
  for i in 0..<4 {
    for j in 0..<4 {
      for k in 0..<4 { out[i * 4 + j] += x[i * 4 + k] * y[k * 4 + j] }
    }
  }
  return matrix(out)
}

/// A transform from 16 numbers in field order, without the throwing initializer.
private func matrix(_ e: [Double]) -> Transform3D {
  Transform3D(
    m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
    m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
}

/// A well-formed transform: scale (possibly mirrored), skew, a rotation about a random axis,
/// a translation and a small perspective, composed as S · K · R · T · P.
private func randomWellFormed(_ random: inout SeededGenerator, perspective: Bool) -> Transform3D {
  func scaleFactor() -> Double {
    let magnitude = random.uniform(0.2...3)
    return random.uniform(0...1) < 0.2 ? -magnitude : magnitude
  }
  var skew = Transform3D.identity
  skew.m21 = random.uniform(-0.5...0.5)
  skew.m31 = random.uniform(-0.5...0.5)
  skew.m32 = random.uniform(-0.5...0.5)
  let rotation = Transform3D.rotation(
    angle: random.uniform(-3...3), x: random.uniform(-1...1), y: random.uniform(-1...1),
    z: random.uniform(-1...1))
  let translation = Transform3D.translation(
    x: random.uniform(-500...500), y: random.uniform(-500...500), z: random.uniform(-100...100))
  var result = Transform3D.scale(x: scaleFactor(), y: scaleFactor(), z: scaleFactor())
    .concatenating(skew).concatenating(rotation).concatenating(translation)
  if perspective {
    var column = Transform3D.identity
    column.m14 = random.uniform(-0.001...0.001)
    column.m24 = random.uniform(-0.001...0.001)
    column.m34 = random.uniform(-0.004...0.004)
    result = result.concatenating(column)
  }
  return result
}

@Suite struct Transform3DTests {
  // MARK: Construction

  @Test func identityIsTheUnitMatrix() {
    #expect(
      Transform3D.identity.elements == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    #expect(Transform3D.identity.isIdentity)
    #expect(!Transform3D.translation(x: 1, y: 0).isIdentity)
  }

  /// `isWithin` says what `largestMagnitude <= bound` says, whichever entry holds a NaN, an
  /// infinity, a number over the bound or one exactly at it.
  @Test func isWithinIsTheLargestMagnitudeWithinTheBound() throws {
    let bound = 1e15
    let entries: [WritableKeyPath<Transform3D, Double>] = [
      \.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
      \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44,
    ]
    for entry in entries {
      for value in [0, 1e15, -1e15, 1e15.nextUp, -2e15, .infinity, -.infinity, .nan, -0.0] {
        var matrix = try Transform3D(elements: (1...16).map(Double.init))
        matrix[keyPath: entry] = value
        #expect(
          matrix.isWithin(bound) == (matrix.largestMagnitude <= bound), "\(entry) = \(value)")
      }
    }
  }

  @Test func elementsRoundTripInFieldOrder() throws {
    let numbers = (1...16).map(Double.init)
    let transform = try Transform3D(elements: numbers)
    #expect(transform.m11 == 1)
    #expect(transform.m14 == 4)
    #expect(transform.m21 == 5)
    #expect(transform.m34 == 12)
    #expect(transform.m41 == 13)
    #expect(transform.m44 == 16)
    #expect(transform.elements == numbers)
  }

  @Test func nonFiniteElementThrowsNamingTheIndex() {
    var numbers = Transform3D.identity.elements
    numbers[11] = .nan
    #expect {
      try Transform3D(elements: numbers)
    } throws: { error in
      guard let error = error as? EngineError else { return false }
      return error.code == .nonFinite && error.message.contains("elements[11]")
        && error.message.contains("m34")
    }
    numbers[11] = 0
    numbers[2] = -.infinity
    #expect {
      try Transform3D(elements: numbers)
    } throws: { error in
      (error as? EngineError)?.code == .nonFinite
        && (error as? EngineError)?.message.contains("elements[2]") == true
    }
  }

  @Test func wrongElementCountThrows() {
    #expect(throws: EngineError.self) { try Transform3D(elements: [1, 0, 0, 1]) }
    #expect {
      try Transform3D(elements: Array(repeating: 0, count: 17))
    } throws: { error in
      (error as? EngineError)?.code == .invalidValue
        && (error as? EngineError)?.message.contains("17") == true
    }
  }

  @Test func translationScaleAndPerspectiveMatrices() {
    #expect(
      Transform3D.translation(x: 3, y: -4, z: 5).elements
        == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1])
    #expect(Transform3D.translation(x: 3, y: -4).m43 == 0)
    #expect(
      Transform3D.scale(x: 2, y: 3, z: 4).elements
        == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1])
    #expect(Transform3D.scale(x: 2, y: 3).m33 == 1)
    #expect(
      Transform3D.perspective(m34: -1.0 / 500).elements
        == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1.0 / 500, 0, 0, 0, 1])
  }

  @Test func rotationAboutZMatchesCoreAnimation() {
    let angle = 0.3
    let (c, s) = (cos(angle), sin(angle))
    let expected = Transform3D(
      m11: c, m12: s, m13: 0, m14: 0,
      m21: -s, m22: c, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(close(Transform3D.rotation(angle: angle, x: 0, y: 0, z: 1), expected))
    // (1, 0) turns towards +y.
    let point = Transform3D.rotation(angle: .pi / 2, x: 0, y: 0, z: 1).apply(x: 1, y: 0)
    #expect(close(point.x, 0) && close(point.y, 1))
  }

  @Test func rotationAboutYMatchesCoreAnimation() {
    let angle = 0.7
    let (c, s) = (cos(angle), sin(angle))
    let expected = Transform3D(
      m11: c, m12: 0, m13: -s, m14: 0,
      m21: 0, m22: 1, m23: 0, m24: 0,
      m31: s, m32: 0, m33: c, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(close(Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0), expected))
  }

  @Test func rotationAboutXMatchesCoreAnimation() {
    let angle = -1.1
    let (c, s) = (cos(angle), sin(angle))
    let expected = Transform3D(
      m11: 1, m12: 0, m13: 0, m14: 0,
      m21: 0, m22: c, m23: s, m24: 0,
      m31: 0, m32: -s, m33: c, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(close(Transform3D.rotation(angle: angle, x: 1, y: 0, z: 0), expected))
  }

  @Test func rotationAboutTheDiagonalCyclesTheAxes() {
    // A right-handed third of a turn about (1, 1, 1) sends x to y, y to z and z to x.
    let rotation = Transform3D.rotation(angle: 2 * .pi / 3, x: 1, y: 1, z: 1)
    let expected = Transform3D(
      m11: 0, m12: 1, m13: 0, m14: 0,
      m21: 0, m22: 0, m23: 1, m24: 0,
      m31: 1, m32: 0, m33: 0, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(close(rotation, expected))
  }

  @Test func rotationAxisNeedNotBeUnitAndZeroAxisIsIdentity() {
    #expect(
      close(
        Transform3D.rotation(angle: 0.4, x: 0, y: 0, z: 7),
        Transform3D.rotation(angle: 0.4, x: 0, y: 0, z: 1)))
    #expect(Transform3D.rotation(angle: 0.4, x: 0, y: 0, z: 0) == .identity)
    #expect(Transform3D.rotation(angle: 0.4, x: .nan, y: 0, z: 0) == .identity)
    // The axis itself keeps an exact 1 on the diagonal.
    #expect(Transform3D.rotation(angle: 0.1, x: 0, y: 0, z: 1).m33 == 1)
  }

  // MARK: Composition

  @Test func concatenationOrderMatchesCoreAnimation() {
    let move = Transform3D.translation(x: 10, y: 0)
    let turn = Transform3D.rotation(angle: .pi / 2, x: 0, y: 0, z: 1)
    // Translate first, then rotate: the origin goes to (10, 0), then turns to (0, 10).
    let translateThenRotate = move.concatenating(turn).apply(x: 0, y: 0)
    #expect(close(translateThenRotate.x, 0) && close(translateThenRotate.y, 10))
    // Rotate first, then translate: the origin stays put, then moves to (10, 0).
    let rotateThenTranslate = turn.concatenating(move).apply(x: 0, y: 0)
    #expect(close(rotateThenTranslate.x, 10) && close(rotateThenTranslate.y, 0))

    #expect(
      Transform3D.scale(x: 2, y: 3).concatenating(.translation(x: 5, y: 7)).elements
        == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 5, 7, 0, 1])
    #expect(
      Transform3D.translation(x: 5, y: 7).concatenating(.scale(x: 2, y: 3)).elements
        == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 10, 21, 0, 1])
  }

  @Test func concatenationMatchesTheTextbookProduct() {
    var random = SeededGenerator(state: 7)
    for _ in 0..<50 {
      let a = matrix((0..<16).map { _ in random.uniform(-3...3) })
      let b = matrix((0..<16).map { _ in random.uniform(-3...3) })
      #expect(close(a.concatenating(b), referenceProduct(a, b), tolerance: 1e-12))
    }
  }

  @Test func byMethodsPrependTheirOperation() {
    var random = SeededGenerator(state: 11)
    let base = randomWellFormed(&random, perspective: true)
    #expect(
      close(
        base.translatedBy(x: 3, y: -2, z: 5),
        Transform3D.translation(x: 3, y: -2, z: 5).concatenating(base), tolerance: 1e-9))
    #expect(
      close(
        base.scaledBy(x: 2, y: 0.5, z: 3),
        Transform3D.scale(x: 2, y: 0.5, z: 3).concatenating(base), tolerance: 1e-12))
    #expect(
      close(
        base.rotatedBy(angle: 0.8, x: 1, y: 2, z: 3),
        Transform3D.rotation(angle: 0.8, x: 1, y: 2, z: 3).concatenating(base), tolerance: 1e-12))
    // CATransform3DTranslate(rotation, 10, 0, 0): the translation acts first, then the turn.
    let point = Transform3D.rotation(angle: .pi / 2, x: 0, y: 0, z: 1)
      .translatedBy(x: 10, y: 0).apply(x: 0, y: 0)
    #expect(close(point.x, 0) && close(point.y, 10))
  }

  @Test func aboutMatchesTranslateTransformTranslateBack() {
    var random = SeededGenerator(state: 3)
    for _ in 0..<20 {
      let transform = randomWellFormed(&random, perspective: true)
      let (ax, ay, az) = (
        random.uniform(-300...300), random.uniform(-300...300), random.uniform(-20...20)
      )
      let expected = Transform3D.translation(x: -ax, y: -ay, z: -az)
        .concatenating(transform)
        .concatenating(.translation(x: ax, y: ay, z: az))
      #expect(
        close(transform.about(anchorX: ax, anchorY: ay, anchorZ: az), expected, tolerance: 1e-8))
    }
    // A scale about the centre of a 100 × 100 box keeps the centre fixed.
    let centre = Transform3D.scale(x: 2, y: 2).about(anchorX: 50, anchorY: 50).apply(x: 50, y: 50)
    #expect(centre.x == 50 && centre.y == 50)
  }

  // MARK: Inverse

  @Test func inverseTimesSelfIsIdentity() throws {
    var random = SeededGenerator(state: 42)
    for _ in 0..<50 {
      let transform = randomWellFormed(&random, perspective: true)
      let inverse = try #require(transform.inverted)
      #expect(close(transform.concatenating(inverse), .identity, tolerance: 1e-9))
      #expect(close(inverse.concatenating(transform), .identity, tolerance: 1e-9))
    }
    let translation = try #require(Transform3D.translation(x: 3, y: 4, z: 5).inverted)
    #expect(translation == .translation(x: -3, y: -4, z: -5))
  }

  @Test func singularMatricesHaveNoInverse() {
    #expect(Transform3D.scale(x: 0, y: 1).inverted == nil)
    var nan = Transform3D.identity
    nan.m22 = .nan
    #expect(nan.inverted == nil)
    var rankThree = Transform3D.identity
    rankThree.m44 = 0
    #expect(rankThree.inverted == nil)
    #expect(Transform3D.scale(x: 1e-3, y: 1e-3, z: 1e-3).inverted != nil)
  }

  // MARK: Projection

  /// The album cover's flip: a 200 × 100 layer at the origin, anchor (0, 0.5) (the point
  /// (0, 50)), rotated 60 degrees about y with m34 = -1/500.
  @Test func perspectiveProjectionOfALeftEdgeFlip() {
    let flip = Transform3D.rotation(angle: degrees(60), x: 0, y: 1, z: 0)
      .concatenating(.perspective(m34: -1.0 / 500))
      .about(anchorX: 0, anchorY: 50)
    // Relative to the anchor the right edge sits at x = 200. The turn takes it to
    // x = 200·cos 60° = 100 and z = -200·sin 60° = -100√3 (away from the viewer);
    // w = 1 + z·m34 = 1 + 100√3/500 = 1 + √3/5.
    let w = 1 + 3.0.squareRoot() / 5
    let topRight = flip.apply(x: 200, y: 0)
    #expect(close(topRight.x, 100 / w, tolerance: 1e-9))
    #expect(close(topRight.y, 50 - 50 / w, tolerance: 1e-9))
    let bottomRight = flip.apply(x: 200, y: 100)
    #expect(close(bottomRight.x, 100 / w, tolerance: 1e-9))
    #expect(close(bottomRight.y, 50 + 50 / w, tolerance: 1e-9))
    // The far edge is foreshortened: shorter than the 100-point left edge.
    #expect(bottomRight.y - topRight.y < 100)
    let topLeft = flip.apply(x: 0, y: 0)
    #expect(close(topLeft.x, 0) && close(topLeft.y, 0))
    let bottomLeft = flip.apply(x: 0, y: 100)
    #expect(close(bottomLeft.x, 0) && close(bottomLeft.y, 100))
  }

  @Test func leftEdgeOfALayerRotatedAboutItNeverMoves() {
    for step in 0...12 {
      let angle = -Double.pi * Double(step) / 12
      let flip = Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0)
        .concatenating(.perspective(m34: -1.0 / 500))
        .about(anchorX: 40, anchorY: 120)
      for y in stride(from: 80.0, through: 160, by: 20) {
        let point = flip.apply(x: 40, y: y)
        #expect(close(point.x, 40, tolerance: 1e-9) && close(point.y, y, tolerance: 1e-9))
        #expect(close(point.z, 0, tolerance: 1e-9))
      }
    }
  }

  @Test func projectingOntoTheEyePlaneStaysFinite() {
    // With m34 = -1/500 a point at z = 500 has w = 0.
    let eye = Transform3D.perspective(m34: -1.0 / 500)
    #expect(eye.homogeneous(x: 10, y: 20, z: 500).w == 0)
    let point = eye.apply(x: 10, y: 20, z: 500)
    #expect(point.x.isFinite && point.y.isFinite && point.z.isFinite)
    #expect(point.x > 1e12 && point.y > 1e12)
    // Behind the eye (w < 0) the divide keeps its sign.
    let behind = eye.apply(x: 10, y: 0, z: 1000)
    #expect(close(behind.x, -10))
  }

  // MARK: Decomposition

  @Test func decompositionFindsTheParts() throws {
    let angle = degrees(50)
    let transform = Transform3D.scale(x: 2, y: 3, z: 4)
      .concatenating(.rotation(angle: angle, x: 0, y: 1, z: 0))
      .concatenating(.translation(x: 7, y: -8))
      .concatenating(.perspective(m34: -1.0 / 500))
    // No z translation, so m44 stays 1 and no normalising enters the expected values.
    #expect(transform.m44 == 1)
    let parts = try #require(transform.decomposed)
    #expect(close(parts.scale.x, 2) && close(parts.scale.y, 3) && close(parts.scale.z, 4))
    #expect(parts.translation == .init(x: 7, y: -8, z: 0))
    #expect(close(parts.skew.xy, 0) && close(parts.skew.xz, 0) && close(parts.skew.yz, 0))
    #expect(close(parts.perspective.x, 0) && close(parts.perspective.y, 0))
    #expect(close(parts.perspective.z, -1.0 / 500) && close(parts.perspective.w, 1))
    // The geometric rotation's unit quaternion, w ≥ 0.
    #expect(close(parts.rotation.x, 0) && close(parts.rotation.z, 0))
    #expect(close(parts.rotation.y, sin(angle / 2)) && close(parts.rotation.w, cos(angle / 2)))
  }

  @Test func decomposeRecomposeRoundTrip() throws {
    var random = SeededGenerator(state: 2024)
    for index in 0..<200 {
      let transform = randomWellFormed(&random, perspective: index % 2 == 0)
      let parts = try #require(transform.decomposed)
      let recomposed = Transform3D(parts)
      // Recomposition yields the matrix normalised by m44.
      let normalised = matrix(transform.elements.map { $0 / transform.m44 })
      #expect(close(recomposed, normalised, tolerance: 1e-9), "matrix \(index)")
    }
  }

  @Test func roundTripNearAHalfTurnAboutAnOddAxis() throws {
    for angle in [Double.pi, .pi - 1e-9, .pi - 1e-6, -.pi + 1e-7] {
      let transform = Transform3D.rotation(angle: angle, x: 1, y: -1, z: 0.5)
      let parts = try #require(transform.decomposed)
      #expect(close(Transform3D(parts), transform, tolerance: 1e-9), "angle \(angle)")
    }
  }

  @Test func singularMatricesDoNotDecompose() {
    #expect(Transform3D.scale(x: 0, y: 1).decomposed == nil)
    var flat = Transform3D.identity
    flat.m44 = 0
    #expect(flat.decomposed == nil)
    var nan = Transform3D.identity
    nan.m41 = .nan
    #expect(nan.decomposed == nil)
  }

  // MARK: Interpolation

  @Test func interpolationEndpointsAreExact() {
    var random = SeededGenerator(state: 99)
    for _ in 0..<50 {
      let a = randomWellFormed(&random, perspective: true)
      let b = randomWellFormed(&random, perspective: true)
      #expect(sameBits(Transform3D.interpolate(a, b, 0), a))
      #expect(sameBits(Transform3D.interpolate(a, b, 1), b))
    }
    // Equal matrices whose bits differ (-0 and 0) still end exactly on each side.
    var negativeZero = Transform3D.identity
    negativeZero.m41 = -0.0
    #expect(sameBits(Transform3D.interpolate(negativeZero, .identity, 1), .identity))
    #expect(sameBits(Transform3D.interpolate(.identity, negativeZero, 1), negativeZero))
    let singular = Transform3D.scale(x: 0, y: 2)
    #expect(sameBits(Transform3D.interpolate(singular, .identity, 0), singular))
    #expect(sameBits(Transform3D.interpolate(.identity, singular, 1), singular))
  }

  @Test func interpolatingTwoRotationsAboutYGivesTheMidAngle() {
    let from = Transform3D.rotation(angle: degrees(20), x: 0, y: 1, z: 0)
    let to = Transform3D.rotation(angle: degrees(100), x: 0, y: 1, z: 0)
    for (t, angle) in [(0.5, 60.0), (0.25, 40.0), (1.5, 140.0), (-0.5, -20.0)] {
      let expected = Transform3D.rotation(angle: degrees(angle), x: 0, y: 1, z: 0)
      #expect(close(Transform3D.interpolate(from, to, t), expected, tolerance: 1e-12), "t = \(t)")
    }
  }

  @Test func interpolationTakesTheShorterArc() {
    // 170° and -170° about z are 20° apart through the half turn, not 340° through 0°.
    let from = Transform3D.rotation(angle: degrees(170), x: 0, y: 0, z: 1)
    let to = Transform3D.rotation(angle: degrees(-170), x: 0, y: 0, z: 1)
    let middle = Transform3D.interpolate(from, to, 0.5)
    #expect(close(middle, .rotation(angle: .pi, x: 0, y: 0, z: 1), tolerance: 1e-12))
  }

  @Test func albumFlipInterpolatesTheAngleUnderPerspective() {
    let flat = Transform3D.perspective(m34: -1.0 / 500)
    let open = Transform3D.rotation(angle: -.pi / 2, x: 0, y: 1, z: 0).concatenating(flat)
    let halfway = Transform3D.rotation(angle: -.pi / 4, x: 0, y: 1, z: 0).concatenating(flat)
    #expect(close(Transform3D.interpolate(flat, open, 0.5), halfway, tolerance: 1e-12))
  }

  @Test func translationAndScaleInterpolateLinearly() {
    let from = Transform3D.scale(x: 1, y: 2).concatenating(.translation(x: 10, y: 20))
    let to = Transform3D.scale(x: 3, y: 4).concatenating(.translation(x: 30, y: -20))
    let middle = Transform3D.scale(x: 2, y: 3).concatenating(.translation(x: 20, y: 0))
    #expect(close(Transform3D.interpolate(from, to, 0.5), middle))
    // Overshoot extrapolates: t = 1.5 gives scale 4 × 5 and translation (40, -40).
    let beyond = Transform3D.scale(x: 4, y: 5).concatenating(.translation(x: 40, y: -40))
    #expect(close(Transform3D.interpolate(from, to, 1.5), beyond))
  }

  @Test func singularOrBrokenMatricesInterpolateDiscretely() {
    let collapsed = Transform3D.scale(x: 0, y: 1).concatenating(.translation(x: 8, y: 0))
    #expect(sameBits(Transform3D.interpolate(collapsed, .identity, 0.25), collapsed))
    #expect(sameBits(Transform3D.interpolate(collapsed, .identity, 0.5), .identity))
    #expect(sameBits(Transform3D.interpolate(.identity, collapsed, 0.49), .identity))
    // Non-finite input never traps; it is one of the two ends.
    var broken = Transform3D.identity
    broken.m11 = .infinity
    broken.m42 = .nan
    #expect(Transform3D.interpolate(broken, .identity, 0.25).m42.isNaN)
    #expect(sameBits(Transform3D.interpolate(broken, .identity, 0.5), .identity))
    #expect(sameBits(Transform3D.interpolate(broken, .identity, 2), .identity))
  }

  @Test func interpolationIsDeterministicAndKeepsEqualEnds() {
    var random = SeededGenerator(state: 5)
    let a = randomWellFormed(&random, perspective: true)
    let b = randomWellFormed(&random, perspective: true)
    for t in [-0.3, 0.1, 0.5, 0.9, 1.2] {
      #expect(sameBits(Transform3D.interpolate(a, b, t), Transform3D.interpolate(a, b, t)))
      #expect(sameBits(Transform3D.interpolate(a, a, t), a))
    }
  }

  @Test func interpolationStaysFiniteForExtremeProgress() {
    var random = SeededGenerator(state: 13)
    for _ in 0..<20 {
      let a = randomWellFormed(&random, perspective: true)
      let b = randomWellFormed(&random, perspective: true)
      for t in [-2.0, -0.5, 1.7, 3.0] {
        #expect(Transform3D.interpolate(a, b, t).isFinite)
      }
    }
  }
}
