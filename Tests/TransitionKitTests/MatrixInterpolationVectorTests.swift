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

/// Matrix interpolation against the expectations browsers are tested with: web-platform-tests
/// css/css-transforms/animation/transform-interpolation-005.html and Chromium's
/// ui/gfx/geometry/transform_unittest.cc, as published, and values read back from Chromium 156
/// (Web Animations API, `getComputedStyle`) where a test says so. BrowserTests'
/// `ChromiumMatrixInterpolationTests` compares random pairs with the browser itself.
@Suite struct MatrixInterpolationVectorTests {
  /// web-platform-tests css/css-transforms/animation (matrix interpolation): halfway between
  /// `matrix(1,0,0,1,100,150)` and `matrix(-1,0,0,1,400,150)` the unflipped y axis is kept.
  @Test func flippingOneAxisKeepsTheOther() {
    let from = matrix(1, 0, 0, 1, 100, 150)
    let to = matrix(-1, 0, 0, 1, 400, 150)
    #expect(close(Transform3D.interpolate(from, to, 0.5), matrix(0, 0, 0, 1, 250, 150)))
    #expect(close(Transform3D.interpolate(from, to, 0.25), matrix(0.5, 0, 0, 1, 175, 150)))
  }

  /// The angles are taken the shorter way round (30° to 330° passes through 0°; 170° to −170°
  /// through 180°), as Chromium's quaternion slerp takes the shorter arc.
  @Test func rotationsTakeTheShorterWayRound() {
    #expect(close(Transform3D.interpolate(rotate(30), rotate(330), 0.5), .identity))
    #expect(close(Transform3D.interpolate(rotate(30), rotate(330), 0.25), rotate(15)))
    #expect(close(Transform3D.interpolate(rotate(170), rotate(-170), 0.5), rotate(180)))
  }

  /// A flip of x to a flip of y: each flip stays on its axis (Chromium decomposes each matrix
  /// on its own and has no Level 1 half-turn rule), so both scales pass through 0. Read back
  /// from Chromium 156: `matrix(0, 0, 0, 0, 0, 0)` at 0.5, `matrix(-0.5, 0, 0, 0.5, 0, 0)` at
  /// 0.25; and a half turn to the identity turns through rotate(90deg).
  @Test func oppositeFlipsStayOnTheirAxes() {
    let from = matrix(-1, 0, 0, 1, 0, 0)
    let to = matrix(1, 0, 0, -1, 0, 0)
    #expect(close(Transform3D.interpolate(from, to, 0.5), matrix(0, 0, 0, 0, 0, 0)))
    #expect(close(Transform3D.interpolate(from, to, 0.25), matrix(-0.5, 0, 0, 0.5, 0, 0)))
    #expect(close(Transform3D.interpolate(rotate(180), .identity, 0.5), rotate(90)))
  }

  /// web-platform-tests transform-interpolation-005.html, "scaleY(7) -> skewX(45deg)
  /// scaleX(7)": the shear factor blends linearly (WPT's expectations are rounded to 4
  /// decimals; the shear at 1/3 is 1/3 of the way from 0 to 1 in a y scale of 5).
  @Test func wptScaleToSkewBlendsTheShearLinearly() {
    let from = matrix(1, 0, 0, 7, 0, 0)
    let to = matrix(7, 0, 1, 1, 0, 0)
    let expected: [(Double, Transform3D)] = [
      (-1, matrix(-5, 0, -13, 13, 0, 0)), (1.0 / 3, matrix(3, 0, 5.0 / 3, 5, 0, 0)),
      (0.5, matrix(4, 0, 2, 4, 0, 0)), (2.0 / 3, matrix(5, 0, 2, 3, 0, 0)),
      (2, matrix(13, 0, -10, -5, 0, 0)),
    ]
    for (t, value) in expected {
      #expect(close(Transform3D.interpolate(from, to, t), value, tolerance: 1e-12), "at \(t)")
    }
  }

  /// web-platform-tests transform-interpolation-005.html, "none -> translateX(6px)
  /// skewX(45deg) scaleX(7) scaleY(2)" (WPT rounds 0.3125 to 0.31 and 1.3125 to 1.31).
  @Test func wptIdentityToSkewedScale() {
    let to = matrix(7, 0, 2, 2, 6, 0)
    let expected: [(Double, Transform3D)] = [
      (-1, matrix(-5, 0, 0, 0, -6, 0)), (0.25, matrix(2.5, 0, 0.3125, 1.25, 1.5, 0)),
      (0.5, matrix(4, 0, 0.75, 1.5, 3, 0)), (0.75, matrix(5.5, 0, 1.3125, 1.75, 4.5, 0)),
      (2, matrix(13, 0, 6, 3, 12, 0)),
    ]
    for (t, value) in expected {
      #expect(close(Transform3D.interpolate(.identity, to, t), value, tolerance: 1e-12), "at \(t)")
    }
  }

  /// web-platform-tests transform-interpolation-005.html, "translateY(-6px) ->
  /// translateX(6px) rotate(90deg) scaleX(7)" and back, extrapolated to −1 and 2.
  @Test func wptTranslationToRotatedScale() {
    let from = matrix(1, 0, 0, 1, 0, -6)
    let to = matrix(0, 7, -1, 0, 6, 0)
    let (cos30, sin30) = (cos(Double.pi / 6), sin(Double.pi / 6))
    let (cos45, sin45) = (cos(Double.pi / 4), sin(Double.pi / 4))
    let (cos60, sin60) = (cos(Double.pi / 3), sin(Double.pi / 3))
    let expected: [(Double, Transform3D)] = [
      (-1, matrix(0, 5, 1, 0, -6, -12)),
      (1.0 / 3, matrix(3 * cos30, 3 * sin30, -sin30, cos30, 2, -4)),
      (0.5, matrix(4 * cos45, 4 * sin45, -sin45, cos45, 3, -3)),
      (2.0 / 3, matrix(5 * cos60, 5 * sin60, -sin60, cos60, 4, -2)),
      (2, matrix(-13, 0, 0, -1, 12, 6)),
    ]
    for (t, value) in expected {
      #expect(close(Transform3D.interpolate(from, to, t), value, tolerance: 1e-12), "at \(t)")
      #expect(
        close(Transform3D.interpolate(to, from, 1 - t), value, tolerance: 1e-12), "back at \(t)")
    }
  }

  /// Chromium, ui/gfx/geometry/transform_unittest.cc (`VerifyBlendForSkewX`,
  /// `VerifyBlendForSkewY`): from the identity to skewX(45deg) the shear blends linearly; to
  /// skewY(45deg), which decomposes into a rotation, a shear and two scales, Chromium's
  /// expected matrices (there in column-major rows; computed in single precision, so they hold
  /// to Chromium's `LOOSE_ERROR_THRESHOLD`, 1e-7).
  @Test func chromiumBlendsSkews() {
    let skewX = matrix(1, 0, 1, 1, 0, 0)
    #expect(close(Transform3D.interpolate(.identity, skewX, 0.25), matrix(1, 0, 0.25, 1, 0, 0)))
    #expect(close(Transform3D.interpolate(.identity, skewX, 0.5), matrix(1, 0, 0.5, 1, 0, 0)))
    let skewY = matrix(1, 1, 0, 1, 0, 0)
    #expect(
      close(
        Transform3D.interpolate(.identity, skewY, 0.25),
        matrix(
          1.0823489449280947471976333, 0.2152925909665224513123150,
          0.0464370719145053845178239, 0.9541702441750861130032035, 0, 0),
        tolerance: 1e-7))
    #expect(
      close(
        Transform3D.interpolate(.identity, skewY, 0.5),
        matrix(
          1.1152212925809066312865525, 0.4619397844342648662419037,
          0.0676495144007326631996335, 0.9519009045724774464858342, 0, 0),
        tolerance: 1e-7))
  }

  /// A 2D matrix with a flip, interpolated with a 3D one, is decomposed in 2D (one axis
  /// flipped), as Chromium decomposes each end on its own: halfway from scaleX(-1) to a
  /// perspective the x scale passes through 0 and nothing turns.
  @Test func aFlipped2DMatrixKeepsItsFlipBesideA3DOne() {
    let middle = Transform3D.interpolate(
      matrix(-1, 0, 0, 1, 0, 0), .perspective(m34: -1.0 / 500), 0.5)
    var expected = Transform3D.perspective(m34: -1.0 / 1000)
    expected.m11 = 0
    #expect(close(middle, expected))
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
