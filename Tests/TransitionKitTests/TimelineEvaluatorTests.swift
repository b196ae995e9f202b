import Foundation
import Testing
import TransitionKit

/// Frame evaluation: the timeline's curve, the composition of the scalar transform components,
/// determinism, storage reuse and clamping.
@Suite struct TimelineEvaluatorTests {
  // MARK: - The timeline's curve

  @Test func timelineCurveMapsProgressBeforeTheKeyframes() throws {
    let timeline = try zTimeline(
      curve: .easeIn, [Keyframe(start: 0, duration: 1, value: .number(100))])
    let evaluator = TimelineEvaluator(timeline)
    for progress in [0.1, 0.25, 0.5, 0.75, 0.9] {
      let expected = 100 * referenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: progress)
      #expect(abs(evaluator.frame(progress: progress).layers[0].z - expected) < 1e-9)
    }
    #expect(evaluator.frame(progress: 0).layers[0].z == 0)
    #expect(evaluator.frame(progress: 1).layers[0].z == 100)
  }

  @Test func evaluatorKeepsTheTimelinesDurationAndCurveForTheFramesTime() throws {
    let layer = TimelineLayer(
      id: "layer", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)),
      tracks: [PropertyTrack(.z, keyframes: [Keyframe(start: 0, duration: 1, value: .number(8))])])
    let timeline = try Timeline(duration: 2.5, curve: .easeOut, layers: [layer])
    let evaluator = TimelineEvaluator(timeline)
    #expect(evaluator.duration == 2.5)
    #expect(evaluator.curve == .easeOut)
    let frame = evaluator.frame(progress: 0.4)
    #expect(frame.t == 1.0)
    #expect(frame.progress == 0.4)
    let eased = referenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1, at: 0.4)
    #expect(abs(frame.layers[0].z - 8 * eased) < 1e-9)
  }

  @Test func timelineCurveAndKeyframeCurveCompose() throws {
    let timeline = try zTimeline(
      curve: .easeIn, [Keyframe(start: 0, duration: 1, value: .number(100), curve: .easeOut)])
    let evaluator = TimelineEvaluator(timeline)
    for progress in [0.2, 0.5, 0.8] {
      let eased = referenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: progress)
      let expected = 100 * referenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1, at: eased)
      #expect(abs(evaluator.frame(progress: progress).layers[0].z - expected) < 1e-9)
    }
  }

  @Test func timelineCurveDecidesWhenALateKeyframeStarts() throws {
    // The keyframe starts at relative time 0.5; with easeIn that is well after progress 0.5.
    let timeline = try zTimeline(
      curve: .easeIn, [Keyframe(start: 0.5, duration: 0.5, value: .number(10))])
    let evaluator = TimelineEvaluator(timeline)
    for progress in [0.5, 0.6] {
      let relative = referenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: progress)
      let expected = relative <= 0.5 ? 0 : 10 * (relative - 0.5) / 0.5
      #expect(abs(evaluator.frame(progress: progress).layers[0].z - expected) < 1e-9)
    }
    #expect(evaluator.frame(progress: 0.6).layers[0].z == 0)
    #expect(evaluator.frame(progress: 0.9).layers[0].z > 0)
  }

  // MARK: - Scalar transform components

  /// A 170-point cover on the left edge anchor, flipping about y from 0 to −π in perspective.
  private func coverFlip() throws -> Timeline {
    var initial = LayerAttributes(frame: Rect(x: 20, y: 100, width: 170, height: 170))
    initial.anchor = Point(x: 0, y: 0.5)
    initial.perspective = -1.0 / 500
    let track = PropertyTrack(
      .rotationY, keyframes: [Keyframe(start: 0, duration: 1, value: .number(-.pi))])
    return try Timeline(
      duration: 1, layers: [TimelineLayer(id: "cover", initial: initial, tracks: [track])])
  }

  @Test(arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
  func rotationThenPerspectiveComposeAsHandDerived(progress: Double) throws {
    let matrix = TimelineEvaluator(try coverFlip()).frame(progress: progress).layers[0].transform
    // R_y(θ) · P with row vectors: P only adds column 4 = column 3 × m34, so
    // m14 = −sin θ · p and m34 = cos θ · p; the rest is the rotation.
    // At θ = 0 the cover lies in its plane and the perspective is left out (it could not
    // change the drawing), so the matrix is the identity.
    let theta = -Double.pi * progress
    let p = theta == 0 ? 0 : -1.0 / 500
    let expected: [Double] = [
      cos(theta), 0, -sin(theta), -sin(theta) * p,
      0, 1, 0, 0,
      sin(theta), 0, cos(theta), cos(theta) * p,
      0, 0, 0, 1,
    ]
    for (index, (actual, wanted)) in zip(matrix.elements, expected).enumerated() {
      #expect(abs(actual - wanted) < 1e-12, "element \(index): \(actual) vs \(wanted)")
    }
  }

  @Test func coverIsEdgeOnAtTheHalf() throws {
    let state = TimelineEvaluator(try coverFlip()).frame(progress: 0.5).layers[0]
    let xs = projectedCorners(state).map(\.x)
    // Every corner lands on the hinge x = 20.
    #expect((xs.max() ?? 0) - (xs.min() ?? 1) < 1e-9)
    #expect(xs.allSatisfy { abs($0 - 20) < 1e-9 })
  }

  @Test func coverIsMirroredAtTheEnd() throws {
    let state = TimelineEvaluator(try coverFlip()).frame(progress: 1).layers[0]
    let corners = projectedCorners(state)
    // cos(−π) = −1: the right edge (170 from the hinge) swings to 170 left of it, w ≈ 1.
    #expect(abs(corners[0].x - 20) < 1e-9)
    #expect(abs(corners[1].x - -150) < 1e-9)
    #expect(abs(corners[1].y - 100) < 1e-9)
  }

  @Test func scalarComponentsApplyInTheDocumentedOrder() throws {
    // transform · scale · rotation.z · translation: (1, 0) → (6, 0) → (12, 0) → (0, 12) → (10, 12).
    var initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    initial.transform = .translation(x: 5, y: 0)
    initial.scaleX = 2
    initial.scaleY = 2
    initial.rotationZ = .pi / 2
    initial.translationX = 10
    let timeline = try Timeline(duration: 1, layers: [TimelineLayer(id: "a", initial: initial)])
    let matrix = TimelineEvaluator(timeline).frame(progress: 0.5).layers[0].transform
    let image = matrix.apply(x: 1, y: 0)
    #expect(abs(image.x - 10) < 1e-12)
    #expect(abs(image.y - 12) < 1e-12)
    #expect(abs(image.z) < 1e-12)
  }

  @Test func uniformScaleTrackWritesBothAxes() throws {
    let track = PropertyTrack(
      .scale, keyframes: [Keyframe(start: 0, duration: 1, value: .number(3))])
    let layer = TimelineLayer(
      id: "a", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1)),
      tracks: [track])
    let matrix = TimelineEvaluator(try Timeline(duration: 1, layers: [layer])).frame(progress: 0.5)
      .layers[0].transform
    #expect(matrix.m11 == 2)
    #expect(matrix.m22 == 2)
    #expect(matrix.m33 == 1)
  }

  // MARK: - Determinism and storage

  @Test func evaluationIsDeterministicToTheBit() throws {
    let timeline = try richTimeline()
    let first = TimelineEvaluator(timeline)
    let second = TimelineEvaluator(timeline)
    for step in 0...40 {
      let progress = Double(step) / 40
      let a = first.frame(progress: progress)
      let b = second.frame(progress: progress)
      #expect(a == b)
      #expect(bitPatterns(a) == bitPatterns(b))
      #expect(bitPatterns(first.frame(progress: progress)) == bitPatterns(a))
    }
  }

  @Test func evaluatingIntoAFrameReusesItsLayerStorage() throws {
    let evaluator = TimelineEvaluator(try richTimeline())
    var frame = Frame()
    evaluator.evaluate(progress: 0.1, into: &frame)
    let address = frame.layers.withUnsafeBufferPointer { $0.baseAddress }
    for step in 0...20 {
      evaluator.evaluate(progress: Double(step) / 20, into: &frame)
      #expect(frame.layers.withUnsafeBufferPointer { $0.baseAddress } == address)
    }
    #expect(frame == evaluator.frame(progress: 1))
  }

  @Test func alphaIsClampedToTheUnitInterval() throws {
    var initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    initial.alpha = 0.5
    let up = PropertyTrack(
      .alpha, keyframes: [Keyframe(start: 0, duration: 0.5, value: .number(1.5))])
    let down = PropertyTrack(
      .alpha, keyframes: [Keyframe(start: 0.5, duration: 0.5, value: .number(-0.5))])
    let timeline = try Timeline(
      duration: 1,
      layers: [
        TimelineLayer(id: "a", initial: initial, tracks: [up]),
        TimelineLayer(id: "b", initial: initial, tracks: [down]),
      ])
    let evaluator = TimelineEvaluator(timeline)
    // a: 0.5 → 1.5 over [0, 0.5], so 0.75 at 0.125 and past 1 from 0.25 on.
    #expect(abs(evaluator.frame(progress: 0.125).layers[0].alpha - 0.75) < 1e-12)
    #expect(evaluator.frame(progress: 0.4).layers[0].alpha == 1)
    #expect(evaluator.frame(progress: 1).layers[0].alpha == 1)
    // b: 0.5 → −0.5 over [0.5, 1], so below 0 from 0.75 on.
    #expect(abs(evaluator.frame(progress: 0.625).layers[1].alpha - 0.25) < 1e-12)
    #expect(evaluator.frame(progress: 0.9).layers[1].alpha == 0)
    #expect(evaluator.frame(progress: 1).layers[1].alpha == 0)
  }

  @Test func overshootingCurveCannotPushAlphaPastOne() throws {
    let overshoot = TimingCurve.cubicBezier(x1: 0.3, y1: 1.8, x2: 0.7, y2: 1.5)
    let track = PropertyTrack(
      .alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(1), curve: overshoot)])
    var initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    initial.alpha = 0
    let evaluator = TimelineEvaluator(
      try Timeline(duration: 1, layers: [TimelineLayer(id: "a", initial: initial, tracks: [track])])
    )
    let alphas = (0...50).map { evaluator.frame(progress: Double($0) / 50).layers[0].alpha }
    #expect(alphas.allSatisfy { $0 >= 0 && $0 <= 1 })
    #expect(alphas.contains(1) && alphas.last == 1)
  }

  // MARK: - Frame fields

  @Test func frameCarriesTimeProgressAndLayerOrder() throws {
    let timeline = try richTimeline()
    let evaluator = TimelineEvaluator(timeline)
    let frame = evaluator.frame(progress: 0.25)
    #expect(frame.progress == 0.25)
    #expect(frame.t == 0.25 * timeline.duration)
    #expect(frame.layers.map(\.id) == timeline.layers.map(\.id))
    #expect(frame.layer("cover")?.content == .object(["image": .string("art.png")]))
    #expect(frame.layer("nobody") == nil)
    #expect(evaluator.frame(progress: 0.25, time: 12.5).t == 12.5)
    #expect(evaluator.frame(progress: 2).progress == 1)
    #expect(evaluator.frame(progress: -1).progress == 0)
  }

  @Test func aFrameAtSecondsIsTheFrameAtSecondsOverTheDuration() throws {
    let timeline = try richTimeline()
    let frame = TimelineEvaluator(timeline).frame(progress: 0.2 / timeline.duration, time: 0.2)
    #expect(frame.t == 0.2)
    #expect(frame.progress == 0.5)
    #expect(frame.layers == TimelineEvaluator(timeline).frame(progress: 0.5).layers)
  }

  @Test func frameAtProgressZeroIsTheInitialState() throws {
    let timeline = try richTimeline()
    let frame = TimelineEvaluator(timeline).frame(progress: 0)
    for (layer, state) in zip(timeline.layers, frame.layers) {
      #expect(state.frame == layer.initial.frame)
      #expect(state.anchor == layer.initial.anchor)
      #expect(state.alpha == layer.initial.alpha)
      #expect(state.background == layer.initial.background)
    }
    // The cover's perspective alone leaves it flat, so its resting transform is the identity.
    #expect(frame.layers[0].transform == .identity)
    #expect(frame.layers[1].transform == .identity)
  }

  // MARK: - Helpers

  private func zTimeline(curve: TimingCurve, _ keyframes: [Keyframe]) throws -> Timeline {
    let layer = TimelineLayer(
      id: "layer", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)),
      tracks: [PropertyTrack(.z, keyframes: keyframes)])
    return try Timeline(duration: 1, curve: curve, layers: [layer])
  }

  /// Two layers with matrices, springs, steps, every calculation mode and colours.
  private func richTimeline() throws -> Timeline {
    var cover = LayerAttributes(frame: Rect(x: 20, y: 100, width: 170, height: 170))
    cover.anchor = Point(x: 0, y: 0.5)
    cover.perspective = -1.0 / 500
    let spring = TimingCurve.spring(try Spring(duration: 0.4, bounce: 0.3))
    let coverTracks = [
      PropertyTrack(
        .rotationY,
        keyframes: [Keyframe(start: 0, duration: 0.8, value: .number(-.pi), curve: .easeInEaseOut)]),
      PropertyTrack(
        .transform,
        keyframes: [
          Keyframe(
            start: 0.1, duration: 0.6,
            value: .transform(
              Transform3D.rotation(angle: 0.7, x: 1, y: 1, z: 0).translatedBy(x: 5, y: -3)),
            curve: spring)
        ]),
      PropertyTrack(
        .position, mode: .cubic,
        keyframes: [
          Keyframe(start: 0, duration: 0.3, value: .point(Point(x: 200, y: 50))),
          Keyframe(start: 0.3, duration: 0.7, value: .point(Point(x: 195, y: 422))),
        ]),
      PropertyTrack(
        .background, mode: .paced,
        keyframes: [Keyframe(start: 0.2, duration: 0.8, value: .color(try Color(hex: "#33669980")))]
      ),
    ]
    var label = LayerAttributes(frame: Rect(x: 0, y: 0, width: 300, height: 40))
    label.background = try Color(hex: "#ffffff")
    let labelTracks = [
      PropertyTrack(
        .alpha,
        keyframes: [
          Keyframe(
            start: 0.5, duration: 0.5, value: .number(0), curve: .steps(count: 4, position: .start))
        ]),
      PropertyTrack(
        .scale, mode: .discrete,
        keyframes: [Keyframe(start: 0.3, duration: 0.2, value: .number(1.2))]),
      PropertyTrack(
        .translationY,
        keyframes: [Keyframe(start: 0, duration: 1, value: .number(-60), curve: .systemDefault)]),
    ]
    return try Timeline(
      duration: 0.4, curve: .easeOut,
      layers: [
        TimelineLayer(
          id: "cover", initial: cover, content: .object(["image": .string("art.png")]),
          tracks: coverTracks),
        TimelineLayer(id: "label", initial: label, tracks: labelTracks),
      ])
  }

  /// The corners top-left, top-right, bottom-left, bottom-right of a layer's frame, transformed
  /// about its anchor and projected.
  private func projectedCorners(_ state: LayerState) -> [(x: Double, y: Double)] {
    let frame = state.frame
    let anchored = state.transform.about(
      anchorX: frame.minX + state.anchor.x * frame.width,
      anchorY: frame.minY + state.anchor.y * frame.height)
    return [
      (frame.minX, frame.minY), (frame.maxX, frame.minY), (frame.minX, frame.maxY),
      (frame.maxX, frame.maxY),
    ]
    .map { corner in
      let image = anchored.apply(x: corner.0, y: corner.1)
      return (image.x, image.y)
    }
  }

  private func bitPatterns(_ frame: Frame) -> [UInt64] {
    var bits = [frame.t.bitPattern, frame.progress.bitPattern]
    for layer in frame.layers {
      let numbers =
        [
          layer.frame.x, layer.frame.y, layer.frame.width, layer.frame.height, layer.anchor.x,
          layer.anchor.y, layer.alpha, layer.z,
        ] + layer.transform.elements
        + [
          layer.background?.red, layer.background?.green, layer.background?.blue,
          layer.background?.alpha,
        ]
        .map { $0 ?? -1 }
      bits += numbers.map(\.bitPattern)
      bits.append(layer.hidden ? 1 : 0)
    }
    return bits
  }

}
