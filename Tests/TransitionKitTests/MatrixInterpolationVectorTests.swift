import Foundation
import Testing
import TransitionKit

/// `matrix(a, b, c, d, e, f)` in CSS terms (Core Animation's m11, m12, m21, m22, m41, m42).
private func matrix(
  _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double
) -> Transform3D {
  var transform = Transform3D.identity
  (transform.m11, transform.m12, transform.m21, transform.m22) = (a, b, c, d)
  (transform.m41, transform.m42) = (e, f)
  return transform
}

/// `rotate(degrees)` as a 2D matrix.
private func rotate(_ degrees: Double) -> Transform3D {
  let radians = degrees * .pi / 180
  return matrix(cos(radians), sin(radians), -sin(radians), cos(radians), 0, 0)
}

private func close(_ a: Transform3D, _ b: Transform3D, tolerance: Double = 1e-12) -> Bool {
  zip(a.elements, b.elements).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
}

/// Matrix interpolation against the expectations browsers are tested with. Every expected value
/// was computed independently with 40-digit arithmetic (mpmath) from the pseudo-code of CSS
/// Transforms Level 1 ("Decomposing a 2D matrix", "Interpolation of decomposed 2D matrix
/// values", recomposition as `S · R · K` plus the translation, whose round trip was checked on
/// 200 random matrices) or, for 3D, from the closed forms of the expected transforms.
@Suite struct MatrixInterpolationVectorTests {
  /// web-platform-tests css/css-transforms/animation (matrix interpolation): halfway between
  /// `matrix(1,0,0,1,100,150)` and `matrix(-1,0,0,1,400,150)` the unflipped y axis is kept.
  @Test func flippingOneAxisKeepsTheOther() {
    let from = matrix(1, 0, 0, 1, 100, 150)
    let to = matrix(-1, 0, 0, 1, 400, 150)
    #expect(close(Transform3D.interpolate(from, to, 0.5), matrix(0, 0, 0, 1, 250, 150)))
    #expect(close(Transform3D.interpolate(from, to, 0.25), matrix(0.5, 0, 0, 1, 175, 150)))
  }

  /// CSS Transforms Level 1, "Interpolation of decomposed 2D matrix values": the angles are
  /// taken the shorter way round (30° to 330° passes through 0°; 170° to −170° through 180°).
  @Test func rotationsTakeTheShorterWayRound() {
    #expect(close(Transform3D.interpolate(rotate(30), rotate(330), 0.5), .identity))
    #expect(close(Transform3D.interpolate(rotate(30), rotate(330), 0.25), rotate(15)))
    #expect(close(Transform3D.interpolate(rotate(170), rotate(-170), 0.5), rotate(180)))
  }

  /// CSS Transforms Level 1: when one matrix flips x and the other y, the flip becomes a half
  /// turn: from `matrix(-1,0,0,1,0,0)` to `matrix(1,0,0,-1,0,0)`.
  @Test func oppositeFlipsTurnThroughAHalfTurn() {
    let from = matrix(-1, 0, 0, 1, 0, 0)
    let to = matrix(1, 0, 0, -1, 0, 0)
    #expect(close(Transform3D.interpolate(from, to, 0.5), matrix(0, -1, -1, 0, 0, 0)))
    let half = 0.70710678118654752
    #expect(
      close(Transform3D.interpolate(from, to, 0.25), matrix(-half, -half, -half, half, 0, 0)))
  }

  /// Scale, rotation and translation blend linearly through the 2D decomposition.
  @Test func scaleRotationAndTranslationBlendLinearly() {
    #expect(
      close(
        Transform3D.interpolate(matrix(2, 0, 0, 3, 10, 20), matrix(4, 0, 0, 5, 30, 40), 0.25),
        matrix(2.5, 0, 0, 3.5, 15, 25)))
    // 2 × rotate(0°) to 4 × rotate(90°): 3 × rotate(45°) halfway.
    let r = 2.1213203435596426
    #expect(
      close(
        Transform3D.interpolate(matrix(2, 0, 0, 2, 0, 0), matrix(0, 4, -4, 0, 0, 0), 0.5),
        matrix(r, r, -r, r, 0, 0)))
  }

  /// CSS Transforms Level 1, "Interpolation of Matrices" ("if one of the matrices for
  /// interpolation is non-invertible, the used animation function must fall-back to a discrete
  /// animation"), as Blink's `TransformationMatrix::Blend` does: `from` below 0.5, `to` from 0.5.
  @Test func singularEndpointsInterpolateDiscretely() {
    let singular2D = matrix(1, 1, 1, 1, 0, 0)
    let other = matrix(2, 0, 0, 2, 10, 10)
    #expect(Transform3D.interpolate(singular2D, other, 0.25) == singular2D)
    #expect(Transform3D.interpolate(singular2D, other, 0.5) == other)
    #expect(Transform3D.interpolate(other, singular2D, 0.75) == singular2D)
    var flatZ = Transform3D.identity
    flatZ.m33 = 0  // scale3d(1, 1, 0)
    let turned = Transform3D.rotation(angle: .pi / 6, x: 0, y: 1, z: 0)
    #expect(Transform3D.interpolate(flatZ, turned, 0.49) == flatZ)
    #expect(Transform3D.interpolate(flatZ, turned, 0.5) == turned)
  }

  /// Chromium, ui/gfx/geometry/transform_unittest.cc (`BlendTranslate`, `BlendScale`,
  /// `BlendRotate`): from the identity to translate3d(100, 200, 100), to scale3d(5, 4, 3) and to
  /// a 90° rotation about x, y, z and (1, 1, 1), blended at t = 0, 0.25, … 1, give t of the way.
  @Test func chromiumBlendsFromIdentity() {
    for t in stride(from: 0.0, through: 1.0, by: 0.25) {
      let translate = Transform3D.translation(x: 100, y: 200, z: 100)
      #expect(
        close(
          Transform3D.interpolate(.identity, translate, t),
          .translation(x: 100 * t, y: 200 * t, z: 100 * t), tolerance: 1e-10), "translate at \(t)")
      let scale = Transform3D.scale(x: 5, y: 4, z: 3)
      #expect(
        close(
          Transform3D.interpolate(.identity, scale, t),
          .scale(x: 1 + 4 * t, y: 1 + 3 * t, z: 1 + 2 * t), tolerance: 1e-10), "scale at \(t)")
      for axis in [(1.0, 0.0, 0.0), (0, 1, 0), (0, 0, 1), (1, 1, 1)] {
        let rotation = Transform3D.rotation(angle: .pi / 2, x: axis.0, y: axis.1, z: axis.2)
        let expected = Transform3D.rotation(angle: .pi / 2 * t, x: axis.0, y: axis.1, z: axis.2)
        #expect(
          close(Transform3D.interpolate(.identity, rotation, t), expected, tolerance: 1e-10),
          "rotate about \(axis) at \(t)")
      }
    }
  }

  /// CSS Transforms Level 2, "Interpolation of Matrices": the perspective row interpolates
  /// linearly, so halfway between the matrices of perspective(400px) and perspective(500px)
  /// m34 is −(1/400 + 1/500) / 2 = −0.00225.
  @Test func perspectiveInterpolatesLinearlyInTheMatrix() {
    let middle = Transform3D.interpolate(
      .perspective(m34: -1.0 / 400), .perspective(m34: -1.0 / 500), 0.5)
    #expect(close(middle, .perspective(m34: -0.00225)))
  }
}
