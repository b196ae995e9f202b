import Testing
import TransitionKit

/// The calculation modes of `UIView.KeyframeAnimationOptions`: linear, discrete, paced and
/// cubic, checked against values derived by hand.
@Suite struct CalculationModeTests {
  // MARK: - Linear

  @Test func linearModeHasAKinkAtAKnot() throws {
    // 0 → 10 over [0, 0.25], then 10 → −5 over [0.25, 0.75]: slopes 40 and −30.
    let keyframes = [
      Keyframe(start: 0, duration: 0.25, value: .number(10)),
      Keyframe(start: 0.25, duration: 0.5, value: .number(-5)),
    ]
    let (left, right) = try oneSidedSlopes(.linear, keyframes, at: 0.25)
    #expect(abs(left - 40) < 1e-6)
    #expect(abs(right + 30) < 1e-6)
  }

  // MARK: - Discrete

  @Test func discreteValueAppearsAtTheKeyframeStart() throws {
    let keyframes = [
      Keyframe(start: 0.2, duration: 0.3, value: .number(10), curve: .easeIn),
      Keyframe(start: 0.6, duration: 0.2, value: .number(30), curve: .easeOut),
    ]
    let expected: [(Double, Double)] = [
      (0, 0), (0.1, 0), (0.199_999, 0), (0.2, 10), (0.4, 10), (0.599_999, 10), (0.6, 30),
      (0.7, 30), (1, 30),
    ]
    for (progress, value) in expected {
      #expect(try z(.discrete, keyframes, at: progress) == value, "at \(progress)")
    }
  }

  @Test func discreteColourAppearsWithoutBlending() throws {
    let red = try Color(hex: "#ff0000ff")
    let track = PropertyTrack(
      .background, mode: .discrete,
      keyframes: [Keyframe(start: 0.5, duration: 0.5, value: .color(red))])
    #expect(try state([track], at: 0.49).background == nil)
    #expect(try state([track], at: 0.5).background == red)
    #expect(try state([track], at: 0.75).background == red)
  }

  // MARK: - Paced

  @Test func pacedModeMovesAtConstantSpeedAcrossUnequalKeyframes() throws {
    // 0 → 10 in 0.7 and 10 → 30 in 0.3 in the keyframes; paced spreads the 30 units evenly.
    let keyframes = [
      Keyframe(start: 0, duration: 0.7, value: .number(10)),
      Keyframe(start: 0.7, duration: 0.3, value: .number(30), curve: .easeIn),
    ]
    for step in 0...10 {
      let progress = Double(step) / 10
      #expect(abs(try z(.paced, keyframes, at: progress) - 30 * progress) < 1e-9, "at \(progress)")
    }
    for step in 0..<10 {
      let progress = Double(step) / 10
      let distance =
        try z(.paced, keyframes, at: progress + 0.1) - z(.paced, keyframes, at: progress)
      #expect(abs(distance - 3) < 1e-9)
    }
  }

  @Test func pacedModeSpansFromTheFirstStartToTheLastEnd() throws {
    let keyframes = [
      Keyframe(start: 0.2, duration: 0.1, value: .number(10)),
      Keyframe(start: 0.3, duration: 0.5, value: .number(30)),
    ]
    #expect(try z(.paced, keyframes, at: 0.1) == 0)
    #expect(try z(.paced, keyframes, at: 0.2) == 0)
    #expect(abs(try z(.paced, keyframes, at: 0.5) - 15) < 1e-9)
    #expect(abs(try z(.paced, keyframes, at: 0.35) - 7.5) < 1e-9)
    #expect(abs(try z(.paced, keyframes, at: 0.8) - 30) < 1e-9)
    #expect(try z(.paced, keyframes, at: 0.9) == 30)
  }

  @Test func pacedModeMeasuresDistanceInThePlane() throws {
    // (0, 0) → (30, 40) is 50 long, (30, 40) → (30, 10) is 30: 80 in all.
    let keyframes = [
      Keyframe(start: 0, duration: 0.5, value: .point(Point(x: 30, y: 40))),
      Keyframe(start: 0.5, duration: 0.5, value: .point(Point(x: 30, y: 10))),
    ]
    let track = PropertyTrack(.position, mode: .paced, keyframes: keyframes)
    let frame = Rect(center: .zero, size: Size(width: 10, height: 10))
    // Half way: 40 along the first leg, 4/5 of it.
    let half = try state([track], frame: frame, at: 0.5).frame.center
    #expect(abs(half.x - 24) < 1e-9 && abs(half.y - 32) < 1e-9)
    // Three quarters: 60, so 10 into the second leg.
    let threeQuarters = try state([track], frame: frame, at: 0.75).frame.center
    #expect(abs(threeQuarters.x - 30) < 1e-9 && abs(threeQuarters.y - 30) < 1e-9)
  }

  @Test func pacedModeFollowsAPathThatTurnsBack() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 0.1, value: .number(10)),
      Keyframe(start: 0.1, duration: 0.9, value: .number(0)),
    ]
    #expect(abs(try z(.paced, keyframes, at: 0.25) - 5) < 1e-9)
    #expect(abs(try z(.paced, keyframes, at: 0.5) - 10) < 1e-9)
    #expect(abs(try z(.paced, keyframes, at: 0.75) - 5) < 1e-9)
    #expect(try z(.paced, keyframes, at: 1) == 0)
  }

  // MARK: - Cubic

  /// Knots (0, 0), (0.25, 10), (0.75, −5), (1, 20).
  private let cubicKeyframes = [
    Keyframe(start: 0, duration: 0.25, value: .number(10)),
    Keyframe(start: 0.25, duration: 0.5, value: .number(-5)),
    Keyframe(start: 0.75, duration: 0.25, value: .number(20)),
  ]

  @Test func cubicModePassesThroughEveryKnot() throws {
    #expect(try z(.cubic, cubicKeyframes, at: 0) == 0)
    #expect(abs(try z(.cubic, cubicKeyframes, at: 0.25) - 10) < 1e-12)
    #expect(abs(try z(.cubic, cubicKeyframes, at: 0.75) + 5) < 1e-12)
    #expect(try z(.cubic, cubicKeyframes, at: 1) == 20)
  }

  @Test func cubicModeFollowsTheCatmullRomSpline() throws {
    // Hermite segments with tangents (next − previous) / (their time span): 40 at 0 (one-sided),
    // −20/3 at 0.25, 40/3 at 0.75. Mid-segment (s = ½): ½·p0 + ⅛·h·m0 + ½·p1 − ⅛·h·m1.
    let first = 0.5 * 0 + 0.125 * 0.25 * 40 + 0.5 * 10 - 0.125 * 0.25 * (-20.0 / 3)
    let second = 0.5 * 10 + 0.125 * 0.5 * (-20.0 / 3) + 0.5 * -5 - 0.125 * 0.5 * (40.0 / 3)
    #expect(abs(first - 6.458_333_333_333_333) < 1e-12)
    #expect(abs(second - 1.25) < 1e-12)
    #expect(abs(try z(.cubic, cubicKeyframes, at: 0.125) - first) < 1e-9)
    #expect(abs(try z(.cubic, cubicKeyframes, at: 0.5) - second) < 1e-9)
  }

  @Test(arguments: [(0.25, -20.0 / 3), (0.75, 40.0 / 3)])
  func cubicModeIsSmoothAtInteriorKnots(knot: Double, tangent: Double) throws {
    let (left, right) = try oneSidedSlopes(.cubic, cubicKeyframes, at: knot)
    #expect(abs(left - right) < 1e-5, "left \(left), right \(right)")
    #expect(abs(left - tangent) < 1e-5)
  }

  @Test func cubicModeHoldsTheInitialValueBeforeTheFirstKnot() throws {
    let keyframes = [
      Keyframe(start: 0.5, duration: 0.25, value: .number(10)),
      Keyframe(start: 0.75, duration: 0.25, value: .number(0)),
    ]
    #expect(try z(.cubic, keyframes, initial: 3, at: 0.25) == 3)
    #expect(try z(.cubic, keyframes, initial: 3, at: 0.5) == 3)
    #expect(abs(try z(.cubic, keyframes, initial: 3, at: 0.75) - 10) < 1e-12)
  }

  // MARK: - Values without a vector form

  @Test(arguments: [CalculationMode.paced, .cubic])
  func booleansAndMatricesFallBackToLinear(mode: CalculationMode) throws {
    let tracks = { (mode: CalculationMode) in
      [
        PropertyTrack(
          .hidden, mode: mode, keyframes: [Keyframe(start: 0, duration: 0.5, value: .bool(true))]),
        PropertyTrack(
          .transform, mode: mode,
          keyframes: [
            Keyframe(start: 0, duration: 0.5, value: .transform(.translation(x: 10, y: 0))),
            Keyframe(start: 0.5, duration: 0.5, value: .transform(.scale(x: 2, y: 2))),
          ]),
      ]
    }
    for progress in [0, 0.25, 0.5, 0.6, 1] {
      #expect(try state(tracks(mode), at: progress) == state(tracks(.linear), at: progress))
    }
  }

  // MARK: - Helpers

  /// The `z` of a one-layer timeline (linear overall curve) at linear `progress`.
  private func z(
    _ mode: CalculationMode, _ keyframes: [Keyframe], initial: Double = 0, at progress: Double
  ) throws -> Double {
    var attributes = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    attributes.z = initial
    let layer = TimelineLayer(
      id: "layer", initial: attributes,
      tracks: [PropertyTrack(.z, mode: mode, keyframes: keyframes)])
    return TimelineEvaluator(try Timeline(duration: 1, layers: [layer])).frame(progress: progress)
      .layers[0].z
  }

  private func state(
    _ tracks: [PropertyTrack], frame: Rect = Rect(x: 0, y: 0, width: 10, height: 10),
    at progress: Double
  ) throws -> LayerState {
    let layer = TimelineLayer(id: "layer", initial: LayerAttributes(frame: frame), tracks: tracks)
    return TimelineEvaluator(try Timeline(duration: 1, layers: [layer])).frame(progress: progress)
      .layers[0]
  }

  /// Second-order one-sided finite-difference slopes of `z` on each side of `time`.
  private func oneSidedSlopes(
    _ mode: CalculationMode, _ keyframes: [Keyframe], at time: Double
  ) throws -> (left: Double, right: Double) {
    let h = 1e-5
    let f = { (t: Double) throws -> Double in try self.z(mode, keyframes, at: t) }
    let left = (3 * (try f(time)) - 4 * (try f(time - h)) + (try f(time - 2 * h))) / (2 * h)
    let right = (-3 * (try f(time)) + 4 * (try f(time + h)) - (try f(time + 2 * h))) / (2 * h)
    return (left, right)
  }
}
