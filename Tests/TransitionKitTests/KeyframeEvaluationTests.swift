import Testing
import TransitionKit

/// Keyframe semantics of `UIView.animateKeyframes`: a property holds its initial value before
/// its first keyframe, blends from the value at a keyframe's start to its target along the
/// keyframe's curve, holds the target afterwards; the keyframe that started last wins.
@Suite struct KeyframeEvaluationTests {
  // MARK: - One keyframe

  @Test func propertyHoldsItsInitialValueBeforeItsFirstKeyframe() throws {
    let keyframes = [Keyframe(start: 0.4, duration: 0.4, value: .number(25))]
    for progress in [0, 0.1, 0.2, 0.39, 0.399_999_999] {
      #expect(try z(initial: 5, keyframes, at: progress) == 5)
    }
  }

  @Test func keyframeBoundariesAreExact() throws {
    let keyframes = [Keyframe(start: 0.4, duration: 0.4, value: .number(25))]
    #expect(try z(initial: 5, keyframes, at: 0.4) == 5)
    #expect(try z(initial: 5, keyframes, at: 0.8) == 25)
  }

  @Test func propertyHoldsTheTargetAfterTheKeyframeEnds() throws {
    let keyframes = [Keyframe(start: 0.4, duration: 0.4, value: .number(25))]
    for progress in [0.800_000_001, 0.9, 1] {
      #expect(try z(initial: 5, keyframes, at: progress) == 25)
    }
  }

  @Test func linearKeyframeBlendsInProportion() throws {
    let keyframes = [Keyframe(start: 0.4, duration: 0.4, value: .number(25))]
    // Local time (0.6 − 0.4) / 0.4 = 0.5 and (0.5 − 0.4) / 0.4 = 0.25.
    #expect(abs(try z(initial: 5, keyframes, at: 0.6) - 15) < 1e-12)
    #expect(abs(try z(initial: 5, keyframes, at: 0.5) - 10) < 1e-12)
  }

  @Test func keyframeCurveEasesItsOwnLocalTime() throws {
    let keyframes = [Keyframe(start: 0.2, duration: 0.5, value: .number(100), curve: .easeIn)]
    for local in [0.1, 0.3, 0.5, 0.8] {
      let expected = 100 * referenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: local)
      #expect(abs(try z(initial: 0, keyframes, at: 0.2 + 0.5 * local) - expected) < 1e-9)
    }
  }

  @Test func zeroLengthKeyframeJumpsAtItsStart() throws {
    let keyframes = [Keyframe(start: 0.5, duration: 0, value: .number(7))]
    #expect(try z(initial: 1, keyframes, at: 0.499_999) == 1)
    #expect(try z(initial: 1, keyframes, at: 0.5) == 7)
    #expect(try z(initial: 1, keyframes, at: 1) == 7)
  }

  @Test func keyframeEndingARoundingErrorAfterOneReachesItsTargetAtTheEnd() throws {
    // Validation allows an end up to 1e-9 past 1 for rounding; progress 1 must still land on
    // the target exactly.
    let keyframes = [
      Keyframe(start: 0.5, duration: 0.500_000_000_1, value: .number(10), curve: .easeIn)
    ]
    #expect(try z(initial: 0, keyframes, at: 1) == 10)
  }

  // MARK: - Sequences

  @Test func eachKeyframeStartsFromTheValueAtItsStart() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 0.5, value: .number(10)),
      Keyframe(start: 0.5, duration: 0.5, value: .number(30)),
    ]
    #expect(abs(try z(initial: 0, keyframes, at: 0.25) - 5) < 1e-12)
    #expect(try z(initial: 0, keyframes, at: 0.5) == 10)
    #expect(abs(try z(initial: 0, keyframes, at: 0.75) - 20) < 1e-12)
    #expect(try z(initial: 0, keyframes, at: 1) == 30)
  }

  @Test func gapBetweenKeyframesHoldsTheEarlierTarget() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 0.2, value: .number(10)),
      Keyframe(start: 0.6, duration: 0.2, value: .number(30)),
    ]
    #expect(try z(initial: 0, keyframes, at: 0.4) == 10)
    #expect(try z(initial: 0, keyframes, at: 0.6) == 10)
    #expect(abs(try z(initial: 0, keyframes, at: 0.7) - 20) < 1e-12)
  }

  @Test func keyframeOrderInTheArrayDoesNotMatter() throws {
    let first = Keyframe(start: 0, duration: 0.5, value: .number(10))
    let second = Keyframe(start: 0.5, duration: 0.5, value: .number(30), curve: .easeOut)
    for progress in stride(from: 0.0, through: 1.0, by: 0.05) {
      #expect(
        try z(initial: 0, [second, first], at: progress)
          == z(initial: 0, [first, second], at: progress))
    }
  }

  // MARK: - Overlapping keyframes

  /// A runs 0 → 100 over the whole timeline; B starts at 0.5 and goes to 0 by 0.75.
  private let overlapping = [
    Keyframe(start: 0, duration: 1, value: .number(100)),
    Keyframe(start: 0.5, duration: 0.25, value: .number(0)),
  ]

  @Test func keyframeThatStartedLastWinsFromTheValueAtItsStart() throws {
    #expect(abs(try z(initial: 0, overlapping, at: 0.25) - 25) < 1e-12)
    #expect(try z(initial: 0, overlapping, at: 0.5) == 50)
    #expect(abs(try z(initial: 0, overlapping, at: 0.625) - 25) < 1e-12)
    #expect(try z(initial: 0, overlapping, at: 0.75) == 0)
    // A has not ended, but B started later, so B's target holds.
    #expect(try z(initial: 0, overlapping, at: 0.9) == 0)
    #expect(try z(initial: 0, overlapping, at: 1) == 0)
  }

  @Test func takeoverIsContinuous() throws {
    let before = try z(initial: 0, overlapping, at: 0.5 - 1e-9)
    let at = try z(initial: 0, overlapping, at: 0.5)
    let after = try z(initial: 0, overlapping, at: 0.5 + 1e-9)
    #expect(abs(before - at) < 1e-6)
    #expect(abs(after - at) < 1e-6)
  }

  @Test func takeoverFromAnEasedKeyframeStartsAtItsEasedValue() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 1, value: .number(100), curve: .easeIn),
      Keyframe(start: 0.5, duration: 0.5, value: .number(-20), curve: .easeOut),
    ]
    let a = 100 * referenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: 0.5)
    #expect(abs(try z(initial: 0, keyframes, at: 0.5) - a) < 1e-9)
    #expect(abs(try z(initial: 0, keyframes, at: 0.5 - 1e-9) - a) < 1e-6)
    let b = a + (-20 - a) * referenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1, at: 0.4)
    #expect(abs(try z(initial: 0, keyframes, at: 0.7) - b) < 1e-9)
    #expect(try z(initial: 0, keyframes, at: 1) == -20)
  }

  @Test func keyframesStartingTogetherLetTheLaterListedOneWin() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 0.5, value: .number(10)),
      Keyframe(start: 0, duration: 0.5, value: .number(20)),
    ]
    #expect(abs(try z(initial: 0, keyframes, at: 0.25) - 10) < 1e-12)
    #expect(try z(initial: 0, keyframes, at: 0.5) == 20)
  }

  // MARK: - Other kinds of values

  @Test func positionMovesTheCentreAndKeepsTheSize() throws {
    let track = PropertyTrack(
      .position, keyframes: [Keyframe(start: 0, duration: 1, value: .point(Point(x: 250, y: 125)))])
    let frame = try layerState(Rect(x: 0, y: 0, width: 100, height: 50), [track], at: 0.5).frame
    // The centre goes from (50, 25) to (250, 125): at the half it is (150, 75).
    #expect(frame == Rect(x: 100, y: 50, width: 100, height: 50))
  }

  @Test func sizeGrowsAboutTheCentre() throws {
    let track = PropertyTrack(
      .size,
      keyframes: [Keyframe(start: 0, duration: 1, value: .size(Size(width: 200, height: 150)))])
    let frame = try layerState(Rect(x: 0, y: 0, width: 100, height: 50), [track], at: 0.5).frame
    #expect(frame == Rect(x: -25, y: -25, width: 150, height: 100))
  }

  @Test func frameBlendsEveryComponent() throws {
    let track = PropertyTrack(
      .frame,
      keyframes: [
        Keyframe(start: 0, duration: 1, value: .rect(Rect(x: 100, y: 40, width: 0, height: 300)))
      ])
    let state = try layerState(Rect(x: 0, y: 0, width: 100, height: 100), [track], at: 0.25)
    #expect(state.frame == Rect(x: 25, y: 10, width: 75, height: 150))
  }

  @Test func missingBackgroundBlendsAsTheTargetColourAtZeroAlpha() throws {
    let target = try Color(hex: "#ff0000ff")
    let track = PropertyTrack(
      .background, keyframes: [Keyframe(start: 0, duration: 1, value: .color(target))])
    let square = Rect(x: 0, y: 0, width: 1, height: 1)
    #expect(try layerState(square, [track], at: 0).background == nil)
    #expect(
      try layerState(square, [track], at: 0.5).background
        == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    #expect(try layerState(square, [track], at: 1).background == target)
  }

  @Test func hiddenSwitchesWhenItsKeyframeEnds() throws {
    let track = PropertyTrack(
      .hidden, keyframes: [Keyframe(start: 0.25, duration: 0.25, value: .bool(true))])
    let square = Rect(x: 0, y: 0, width: 1, height: 1)
    #expect(try layerState(square, [track], at: 0.25).hidden == false)
    #expect(try layerState(square, [track], at: 0.45).hidden == false)
    #expect(try layerState(square, [track], at: 0.5).hidden == true)
    #expect(try layerState(square, [track], at: 1).hidden == true)
  }

  // MARK: - Helpers

  /// The `z` of a one-layer, two-second timeline with a linear curve at linear `progress`.
  private func z(initial: Double, _ keyframes: [Keyframe], at progress: Double) throws -> Double {
    var attributes = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    attributes.z = initial
    let layer = TimelineLayer(
      id: "layer", initial: attributes, tracks: [PropertyTrack(.z, keyframes: keyframes)])
    let timeline = try Timeline(duration: 2, layers: [layer])
    return TimelineEvaluator(timeline).frame(progress: progress).layers[0].z
  }

  private func layerState(_ frame: Rect, _ tracks: [PropertyTrack], at progress: Double) throws
    -> LayerState
  {
    let layer = TimelineLayer(id: "layer", initial: LayerAttributes(frame: frame), tracks: tracks)
    return TimelineEvaluator(try Timeline(duration: 1, layers: [layer])).frame(progress: progress)
      .layers[0]
  }

}
