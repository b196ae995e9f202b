import Testing

@testable import TransitionKit

/// Progress values: a uniform grid of 20,001 points plus points crowding both ends.
private let progressGrid: [Double] = {
  var grid = (0...20_000).map { Double($0) / 20_000 }
  for exponent in 1...15 {
    let tiny = 1 / Double(10 * exponent * exponent * exponent)
    grid += [tiny, 1 - tiny]
  }
  grid += [
    1e-300, Double.leastNonzeroMagnitude, 1e-16, 1 - 1e-16, 0.5.nextUp, 0.5.nextDown, 1.0.nextDown,
  ]
  return grid
}()

/// Bézier curves checked against the reference: the presets, overshooting curves, and curves
/// with flat or vertical tangents.
private let bezierCases: [(x1: Double, y1: Double, x2: Double, y2: Double)] = [
  (0.42, 0, 1, 1),  // easeIn
  (0, 0, 0.58, 1),  // easeOut
  (0.42, 0, 0.58, 1),  // easeInEaseOut
  (0.25, 0.1, 0.25, 1),  // default
  (0.5, -0.5, 0.5, 1.5),
  (0.68, -0.55, 0.265, 1.55),
  (0.1, 2.5, 0.9, -1.5),
  (0, 0, 1, 1),
  (1, 0, 0, 1),
  (0, 1, 1, 0),
  (1, 1, 0, 0),
  (0, 0, 0, 1),
  (1, 0, 1, 1),
  (0.3, -3, 0.7, 4),
]

@Suite struct TimingCurveTests {
  @Test(arguments: bezierCases.indices)
  func bezierValueMatchesReferenceSolver(caseIndex: Int) {
    let (x1, y1, x2, y2) = bezierCases[caseIndex]
    let curve = TimingCurve.cubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
    var worstError = 0.0
    var worstProgress = 0.0
    for progress in progressGrid {
      // The reference bisects in double precision: where dx/ds is flat a rounding error of x(s)
      // moves s a long way, so it is trusted only where |dx/ds| ≥ 1e-3 (there it is within
      // about 1e-13); `bezierHoldsOneBillionthWhereXIsExact` covers the flat places.
      guard let expected = referenceBezier(x1: x1, y1: y1, x2: x2, y2: y2, trustedAt: progress)
      else { continue }
      let error = abs(curve.value(at: progress) - expected)
      if error > worstError {
        worstError = error
        worstProgress = progress
      }
    }
    #expect(worstError <= 1e-9, "curve \(curve): error \(worstError) at progress \(worstProgress)")
  }

  /// Curves whose control points are quarters: at x(k / 2¹⁶) the value y(k / 2¹⁶) is exact in
  /// integer arithmetic (numerators below 2⁵³ over 2⁵⁰), so the solver is checked to 1e-9
  /// against exact values everywhere, vertical tangents included (x = 0.5 on
  /// `cubic-bezier(1, 0, 0, 1)`, where a double-precision solver is off by about 3e-6).
  @Test(arguments: [
    (4, 0, 0, 4), (0, 4, 4, 0), (4, 4, 0, 0), (0, 0, 0, 4), (4, 0, 4, 4), (0, 0, 4, 4),
    (2, -2, 2, 6), (1, 0, 3, 4), (4, -8, 0, 12),
  ])
  func bezierHoldsOneBillionthWhereXIsExact(quarters: (Int, Int, Int, Int)) {
    let (a1, b1, a2, b2) = quarters
    let curve = TimingCurve.cubicBezier(
      x1: Double(a1) / 4, y1: Double(b1) / 4, x2: Double(a2) / 4, y2: Double(b2) / 4)
    let n = 1 << 16
    /// 4 n³ times the Bernstein polynomial with control values p1 / 4, p2 / 4 at s = k / n.
    func scaled(_ p1: Int, _ p2: Int, _ k: Int) -> Int {
      3 * p1 * k * (n - k) * (n - k) + 3 * p2 * k * k * (n - k) + 4 * k * k * k
    }
    let denominator = Double(4 * n * n * n)
    var worstError = 0.0
    var worstX = 0.0
    for k in stride(from: 0, through: n, by: 7) + [n / 2 - 1, n / 2, n / 2 + 1] {
      let x = Double(scaled(a1, a2, k)) / denominator
      let y = Double(scaled(b1, b2, k)) / denominator
      let error = abs(curve.value(at: x) - y)
      if error > worstError {
        worstError = error
        worstX = x
      }
    }
    #expect(worstError <= 1e-9, "curve \(curve): error \(worstError) at x = \(worstX)")
  }

  /// Vectors computed independently with 50-digit arithmetic (mpmath, bisection on the curve
  /// parameter): `cubic-bezier(1, 0, 0, 1)` has a vertical tangent at x = 0.5, where y = 0.5.
  @Test func verticalTangentInsideTheInterval() {
    let curve = TimingCurve.cubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)
    for (x, y) in [
      (0.5, 0.5), (0.25, 0.029724605511925196968), (0.4, 0.11139733926807009017),
      (0.49, 0.30141867875538200714), (0.499, 0.40600592125788451264),
      (0.5000001, 0.5043859766073192991), (0.6, 0.88860266073192990983),
      (0.75, 0.97027539448807480303),
    ] {
      #expect(abs(curve.value(at: x) - y) <= 1e-9, "x = \(x)")
    }
  }

  /// Chromium, ui/gfx/geometry/cubic_bezier_unittest.cc (`CubicBezierTest, Basic`):
  /// `CubicBezier(0.25, 0.0, 0.75, 1.0)` solved at x = 0.05 … 0.95, expected to 5 digits with
  /// epsilon 0.00015 there. Each value was checked independently with 50-digit arithmetic
  /// (the exact values are within 1e-5 of these); here they hold to Chromium's epsilon.
  @Test func chromiumCubicBezierBasic() {
    let curve = TimingCurve.cubicBezier(x1: 0.25, y1: 0, x2: 0.75, y2: 1)
    let expected: [(Double, Double)] = [
      (0.05, 0.01136), (0.1, 0.03978), (0.15, 0.079780), (0.2, 0.12803), (0.25, 0.18235),
      (0.3, 0.24115), (0.35, 0.30323), (0.4, 0.36761), (0.45, 0.43345), (0.5, 0.5),
      (0.6, 0.63239), (0.65, 0.69677), (0.7, 0.75885), (0.75, 0.81765), (0.8, 0.87197),
      (0.85, 0.92022), (0.9, 0.96022), (0.95, 0.98864), (1, 1),
    ]
    for (x, y) in expected {
      #expect(abs(curve.value(at: x) - y) <= 0.00015, "x = \(x)")
    }
    // The same points to 1e-9 against the 50-digit values.
    for (x, y) in [
      (0.05, 0.011363973195035836), (0.25, 0.18235613683528519), (0.45, 0.43345069804112887),
      (0.7, 0.75884046721193092), (0.95, 0.98863602680496415),
    ] {
      #expect(abs(curve.value(at: x) - y) <= 1e-9, "x = \(x)")
    }
  }

  /// transitiond clamps a curve's input to [0, 1]; CSS extrapolates a Bézier along its end
  /// tangents instead (Chromium's `CubicBezierTest, InputOutOfRange`:
  /// `CubicBezier(0.5, 1.0, 0.5, 1.0).Solve(-1.0) == -2.0`, `Solve(2.0) == 1.0`). The engine
  /// never hands a curve progress outside [0, 1] (see docs/plugins.md), so the choice shows only
  /// to a direct caller: it gets the end values.
  @Test func inputOutsideTheUnitIntervalIsClampedNotExtrapolated() {
    let curve = TimingCurve.cubicBezier(x1: 0.5, y1: 1, x2: 0.5, y2: 1)
    #expect(curve.value(at: -1) == 0)
    #expect(curve.value(at: 2) == 1)
    let overshooting = TimingCurve.cubicBezier(x1: 0.5, y1: -0.5, x2: 0.5, y2: 1.5)
    #expect(overshooting.value(at: -0.25) == 0 && overshooting.value(at: 1.25) == 1)
    #expect(overshooting.slope(at: -1) == overshooting.slope(at: 0))
  }

  @Test func presetsHaveTheCoreAnimationControlPoints() {
    #expect(TimingCurve.easeIn == .cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1))
    #expect(TimingCurve.easeOut == .cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1))
    #expect(TimingCurve.easeInEaseOut == .cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
    #expect(TimingCurve.systemDefault == .cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
  }

  @Test func overshootingCurveLeavesTheUnitInterval() {
    let curve = TimingCurve.cubicBezier(x1: 0.5, y1: -0.5, x2: 0.5, y2: 1.5)
    let values = progressGrid.map { curve.value(at: $0) }
    #expect((values.min() ?? 0) < -0.05)
    #expect((values.max() ?? 0) > 1.05)
  }

  /// One curve of every kind: presets, the Bézier cases, steps and springs.
  static func everyKindOfCurve() throws -> [TimingCurve] {
    let presets: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .systemDefault]
    let beziers = bezierCases.map {
      TimingCurve.cubicBezier(x1: $0.x1, y1: $0.y1, x2: $0.x2, y2: $0.y2)
    }
    let steps: [TimingCurve] = [
      .steps(count: 1, position: .start), .steps(count: 1, position: .end),
      .steps(count: 7, position: .start), .steps(count: 7, position: .end),
    ]
    let springs: [TimingCurve] = [
      .spring(try Spring(duration: 0.5, bounce: 0.3)),
      .spring(try Spring(stiffness: 100, damping: 20, initialVelocity: -4)),
      .spring(try Spring(stiffness: 100, damping: 60, initialVelocity: 3)),
    ]
    return presets + beziers + steps + springs
  }

  @Test func endpointsAreExact() throws {
    for curve in try Self.everyKindOfCurve() {
      #expect(curve.value(at: 0) == 0)
      #expect(curve.value(at: 1) == 1)
      #expect(curve.value(at: -0.0) == 0)
      #expect(curve.value(at: -3) == 0)
      #expect(curve.value(at: 4) == 1)
      #expect(curve.value(at: .nan) == 0)
      #expect(curve.value(at: -.infinity) == 0)
      #expect(curve.value(at: .infinity) == 1)
    }
  }

  @Test func slopeMatchesCentralDifference() throws {
    let h = 1e-6
    for curve in try Self.everyKindOfCurve() {
      for index in 1...99 {
        let progress = Double(index) / 100
        let difference = (curve.value(at: progress + h) - curve.value(at: progress - h)) / (2 * h)
        let slope = curve.slope(at: progress)
        if case .steps = curve {
          #expect(slope == 0)
          continue
        }
        if case .cubicBezier(1, _, 0, _) = curve, abs(progress - 0.5) < 0.02 {
          // A vertical tangent at 0.5: only finiteness is meaningful there.
          #expect(slope.isFinite)
          continue
        }
        #expect(
          abs(slope - difference) <= 1e-4 * max(1, abs(slope)),
          "\(curve) at \(progress): slope \(slope), difference \(difference)")
      }
    }
  }

  @Test func bezierSlopeAtTheEndsIsTheTangentRatio() {
    // At s = 0 the slope is y1/x1; when x1 = y1 = 0 it is y2/x2 (l'Hôpital). At s = 1 it is
    // (1 − y2)/(1 − x2); when x2 = y2 = 1 it is (1 − y1)/(1 − x1).
    #expect(TimingCurve.easeIn.slope(at: 0) == 0)
    #expect(abs(TimingCurve.easeIn.slope(at: 1) - 1 / 0.58) < 1e-12)
    #expect(abs(TimingCurve.easeOut.slope(at: 0) - 1 / 0.58) < 1e-12)
    #expect(TimingCurve.easeOut.slope(at: 1) == 0)
    #expect(abs(TimingCurve.systemDefault.slope(at: 0) - 0.4) < 1e-12)
    #expect(TimingCurve.systemDefault.slope(at: 1) == 0)
    #expect(TimingCurve.linear.slope(at: 0.3) == 1)
    let overshoot = TimingCurve.cubicBezier(x1: 0.5, y1: -0.5, x2: 0.5, y2: 1.5)
    #expect(abs(overshoot.slope(at: 0) - -1) < 1e-12)
    #expect(abs(overshoot.slope(at: 1) - -1) < 1e-12)
    // Clamped like the value: outside [0, 1] the slope is the one at the nearer end.
    #expect(overshoot.slope(at: -2) == overshoot.slope(at: 0))
    #expect(overshoot.slope(at: 3) == overshoot.slope(at: 1))
  }

  @Test func verticalTangentGivesLargeFiniteSlope() {
    let curve = TimingCurve.cubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)
    let slope = curve.slope(at: 0.5)
    #expect(slope.isFinite)
    #expect(slope > 50)
    let steepStart = TimingCurve.cubicBezier(x1: 0, y1: 1, x2: 1, y2: 1)
    #expect(steepStart.slope(at: 0).isFinite)
    #expect(steepStart.slope(at: 0) > 50)
  }

  /// CSS Easing Functions Level 1, "step easing functions": the step index is ⌊p n⌋, plus
  /// one for jump-start, and the output is index / n.
  @Test(arguments: [1, 2, 3, 4, 10], [StepPosition.start, .end])
  func stepsJumpWhereCSSSays(count: Int, position: StepPosition) {
    let curve = TimingCurve.steps(count: count, position: position)
    let n = Double(count)
    for step in 0..<count {
      // Inside each step, away from the jumps.
      for fraction in [0.01, 0.5, 0.99] {
        let progress = (Double(step) + fraction) / n
        let expected = position == .start ? Double(step + 1) / n : Double(step) / n
        #expect(curve.value(at: progress) == expected, "\(curve) at \(progress)")
      }
    }
    #expect(curve.value(at: 0) == 0)
    #expect(curve.value(at: 1) == 1)
    #expect(curve.value(at: 1.0.nextDown) == (position == .start ? 1 : (n - 1) / n))
    #expect(curve.value(at: 1e-12) == (position == .start ? 1 / n : 0))
    #expect(curve.slope(at: 0.5) == 0)
  }

  @Test func stepsAreRightContinuousAtTheirJumps() {
    let curve = TimingCurve.steps(count: 4, position: .end)
    #expect(curve.value(at: 0.25) == 0.25)
    #expect(curve.value(at: 0.25.nextDown) == 0)
    #expect(curve.value(at: 0.75) == 0.75)
    let start = TimingCurve.steps(count: 4, position: .start)
    #expect(start.value(at: 0.5) == 0.75)
    #expect(start.value(at: 0.5.nextDown) == 0.5)
  }

  @Test(arguments: TimingCurve.presetNames)
  func presetNamesRoundTrip(name: String) throws {
    let curve = try TimingCurve(named: name)
    #expect(curve.name == name)
    #expect(try TimingCurve(named: curve.name ?? "") == curve)
  }

  @Test func namedPresetsAreTheDocumentedCurves() throws {
    #expect(try TimingCurve(named: "linear") == .linear)
    #expect(try TimingCurve(named: "easeIn") == .easeIn)
    #expect(try TimingCurve(named: "easeOut") == .easeOut)
    #expect(try TimingCurve(named: "easeInEaseOut") == .easeInEaseOut)
    #expect(try TimingCurve(named: "default") == .systemDefault)
  }

  @Test func unnamedCurvesHaveNoName() throws {
    #expect(TimingCurve.cubicBezier(x1: 0, y1: 0, x2: 1, y2: 1).name == nil)
    #expect(TimingCurve.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1.01).name == nil)
    #expect(TimingCurve.steps(count: 3, position: .end).name == nil)
    #expect(TimingCurve.spring(try Spring(duration: 1)).name == nil)
  }

  @Test(arguments: ["", "ease", "EaseIn", "easeInOut", "systemDefault", "linear "])
  func unknownNamesThrowInvalidValue(name: String) {
    #expect {
      _ = try TimingCurve(named: name)
    } throws: { error in
      guard let error = error as? EngineError else { return false }
      return error.code == .invalidValue && error.message.contains("\"\(name)\"")
    }
  }

  @Test(arguments: [
    (TimingCurve.cubicBezier(x1: .nan, y1: 0, x2: 1, y2: 1), EngineError.Code.nonFinite, "x1"),
    (.cubicBezier(x1: 0.5, y1: .infinity, x2: 1, y2: 1), .nonFinite, "y1"),
    (.cubicBezier(x1: 0.5, y1: 0, x2: 0.5, y2: -.infinity), .nonFinite, "y2"),
    (.cubicBezier(x1: 1.5, y1: 0, x2: 1, y2: 1), .outOfRange, "x1"),
    (.cubicBezier(x1: -0.1, y1: 0, x2: 1, y2: 1), .outOfRange, "x1"),
    (.cubicBezier(x1: 0.2, y1: 0, x2: 1.0000001, y2: 1), .outOfRange, "x2"),
    (.cubicBezier(x1: 0.2, y1: 0, x2: .nan, y2: 1), .nonFinite, "x2"),
    (.steps(count: 0, position: .end), .outOfRange, "count"),
    (.steps(count: -3, position: .start), .outOfRange, "count"),
  ])
  func invalidCurvesThrowNamingTheParameter(
    curve: TimingCurve, code: EngineError.Code, parameter: String
  ) {
    #expect {
      _ = try curve.validated()
    } throws: { error in
      guard let error = error as? EngineError else { return false }
      return error.code == code && error.message.contains(parameter)
    }
  }

  @Test func invalidSpringCurvesThrowNamingTheParameter() throws {
    var negativeStiffness = try Spring(stiffness: 100, damping: 10)
    negativeStiffness.stiffness = -100
    var zeroMass = try Spring(stiffness: 100, damping: 10)
    zeroMass.mass = 0
    var nanDamping = try Spring(stiffness: 100, damping: 10)
    nanDamping.damping = .nan
    let cases: [(Spring, EngineError.Code, String)] = [
      (negativeStiffness, .outOfRange, "spring.stiffness"),
      (zeroMass, .outOfRange, "spring.mass"),
      (nanDamping, .nonFinite, "spring.damping"),
    ]
    for (spring, code, parameter) in cases {
      #expect {
        _ = try TimingCurve.spring(spring).validated()
      } throws: { error in
        guard let error = error as? EngineError else { return false }
        return error.code == code && error.message.contains(parameter)
      }
    }
  }

  @Test func validCurvesValidateUnchanged() throws {
    for curve in try Self.everyKindOfCurve() {
      #expect(try curve.validated() == curve)
    }
  }

  @Test func invalidCurvesStillEvaluateWithoutTrapping() {
    let curves: [TimingCurve] = [
      .cubicBezier(x1: .nan, y1: 0, x2: 1, y2: 1),
      .cubicBezier(x1: 3, y1: 0, x2: -2, y2: 1),
      .cubicBezier(x1: 0.5, y1: .infinity, x2: 0.5, y2: 1),
      .steps(count: 0, position: .start),
      .steps(count: Int.min, position: .end),
    ]
    for curve in curves {
      for progress in stride(from: 0.0, through: 1.0, by: 0.125) {
        _ = curve.value(at: progress)
        _ = curve.slope(at: progress)
      }
      #expect(curve.value(at: 0) == 0)
      #expect(curve.value(at: 1) == 1)
    }
    // A step count below 1 behaves as a single step.
    #expect(TimingCurve.steps(count: 0, position: .start).value(at: 0.5) == 1)
    #expect(TimingCurve.steps(count: 0, position: .end).value(at: 0.5) == 0)
  }

  @Test func springCurveFollowsTheSpringOverItsSettlingDuration() throws {
    let spring = try Spring(duration: 0.6, bounce: 0.25, initialVelocity: 2)
    let curve = TimingCurve.spring(spring)
    let duration = spring.settlingDuration
    for index in 1..<100 {
      let progress = Double(index) / 100
      #expect(curve.value(at: progress) == spring.value(at: progress * duration))
      #expect(curve.slope(at: progress) == duration * spring.velocity(at: progress * duration))
    }
    // Settled within the threshold just before the end, exactly 1 at the end.
    #expect(abs(curve.value(at: 1.0.nextDown) - 1) <= Spring.settlingThreshold * (1 + 1e-9))
    #expect(abs(curve.value(at: 0.999) - 1) < Spring.settlingThreshold * 1.1)
    #expect(curve.value(at: 1) == 1)
    // The initial velocity carries over, scaled from seconds to the whole curve.
    #expect(abs(curve.slope(at: 0) - 2 * duration) < 1e-9)
  }
}
