import Testing
import TransitionKit

/// Timeline validation: every bad input is a typed `EngineError` with the right code and a
/// message naming where it is; nothing traps.
@Suite struct TimelineTests {
  // MARK: - Accepted timelines

  @Test func validTimelineKeepsItsParts() throws {
    let layer = TimelineLayer(
      id: "cover", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)),
      content: .string("art.png"),
      tracks: [
        PropertyTrack(.alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
      ])
    let timeline = try Timeline(duration: 0.5, curve: .easeOut, layers: [layer])
    #expect(timeline.duration == 0.5)
    #expect(timeline.curve == .easeOut)
    #expect(timeline.layers == [layer])
  }

  @Test func keyframesTouchingTheEndsAreAccepted() throws {
    let keyframes = [
      Keyframe(start: 0, duration: 0, value: .number(1)),
      Keyframe(start: 0.25, duration: 0.75, value: .number(2)),
      Keyframe(start: 1, duration: 0, value: .number(3)),
      Keyframe(start: 0, duration: 1, value: .number(4)),
    ]
    #expect(throws: Never.self) { try timeline(tracks: [PropertyTrack(.z, keyframes: keyframes)]) }
  }

  @Test func layerWithoutTracksIsAccepted() {
    #expect(throws: Never.self) { try timeline(tracks: []) }
  }

  // MARK: - Duration and layers

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func nonFiniteDurationIsRejected(duration: Double) {
    let error = caughtEngineError { try Timeline(duration: duration, layers: [plainLayer("a")]) }
    #expect(error?.code == .nonFinite)
    #expect(error?.message.contains("duration") == true)
  }

  @Test(arguments: [0.0, -0.0, -1.0, -.leastNonzeroMagnitude])
  func durationThatIsNotPositiveIsRejected(duration: Double) {
    let error = caughtEngineError { try Timeline(duration: duration, layers: [plainLayer("a")]) }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("duration") == true)
  }

  @Test func timelineWithoutLayersIsRejected() {
    #expect(caughtEngineError { try Timeline(duration: 1, layers: []) }?.code == .empty)
  }

  @Test func emptyLayerIdIsRejected() {
    let error = caughtEngineError {
      try Timeline(duration: 1, layers: [plainLayer("a"), plainLayer("")])
    }
    #expect(error?.code == .empty)
    #expect(error?.message.contains("layers[1].id") == true)
  }

  @Test func repeatedLayerIdIsRejected() {
    let error = caughtEngineError {
      try Timeline(duration: 1, layers: [plainLayer("a"), plainLayer("b"), plainLayer("a")])
    }
    #expect(error?.code == .duplicate)
    #expect(error?.message.contains("layers[2].id") == true)
  }

  @Test func invalidTimelineCurveIsRejected() {
    let error = caughtEngineError {
      try Timeline(
        duration: 1, curve: .cubicBezier(x1: 1.5, y1: 0, x2: 0.5, y2: 1), layers: [plainLayer("a")])
    }
    #expect(error?.code == .outOfRange)
  }

  // MARK: - Initial values

  @Test func nonFiniteInitialValuesAreRejectedNamingTheProperty() {
    let frame = Rect(x: 0, y: 0, width: 10, height: 10)
    var cases: [(LayerAttributes, String)] = []
    var attributes = LayerAttributes(frame: frame)
    attributes.alpha = .nan
    cases.append((attributes, "alpha"))
    attributes = LayerAttributes(frame: Rect(x: 0, y: 0, width: .infinity, height: 10))
    cases.append((attributes, "frame"))
    attributes = LayerAttributes(frame: frame)
    attributes.perspective = -.infinity
    cases.append((attributes, "perspective"))
    attributes = LayerAttributes(frame: frame)
    attributes.anchor = Point(x: .nan, y: 0.5)
    cases.append((attributes, "anchor"))
    attributes = LayerAttributes(frame: frame)
    attributes.transform.m34 = .nan
    cases.append((attributes, "transform"))
    attributes = LayerAttributes(frame: frame)
    attributes.background = Color(red: 0, green: .infinity, blue: 0)
    cases.append((attributes, "background"))
    attributes = LayerAttributes(frame: frame)
    attributes.rotationY = .nan
    cases.append((attributes, "rotation.y"))
    for (initial, name) in cases {
      let error = caughtEngineError {
        try Timeline(
          duration: 1, layers: [plainLayer("a"), TimelineLayer(id: "b", initial: initial)])
      }
      #expect(error?.code == .nonFinite, "\(name)")
      #expect(
        error?.message.contains("layers[1].\(name)") == true, "\(error?.message ?? "accepted")")
    }
  }

  @Test func negativeInitialSizeIsRejected() {
    let initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: -1))
    let error = caughtEngineError {
      try Timeline(duration: 1, layers: [TimelineLayer(id: "a", initial: initial)])
    }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("layers[0].frame") == true)
  }

  // MARK: - Tracks

  @Test func trackWithoutKeyframesIsRejected() {
    let error = caughtEngineError {
      try timeline(tracks: [track(.z, start: 0, duration: 1), PropertyTrack(.alpha, keyframes: [])])
    }
    #expect(error?.code == .empty)
    #expect(error?.message.contains("layers[0].tracks[1]") == true)
  }

  @Test func repeatedTrackIsRejected() {
    let error = caughtEngineError {
      try timeline(tracks: [
        track(.alpha, start: 0, duration: 1), track(.z, start: 0, duration: 1),
        track(.alpha, start: 0, duration: 0.5),
      ])
    }
    #expect(error?.code == .duplicate)
    #expect(error?.message.contains("layers[0].tracks[2]") == true)
  }

  @Test(arguments: [
    (LayerProperty.frame, LayerProperty.position), (.position, .frame), (.frame, .size),
    (.scale, .scaleX), (.scaleY, .scale),
  ])
  func propertiesThatWriteTheSameValuesConflict(first: LayerProperty, second: LayerProperty) {
    let error = caughtEngineError {
      try timeline(tracks: [
        PropertyTrack(first, keyframes: [Keyframe(start: 0, duration: 1, value: sample(first))]),
        PropertyTrack(second, keyframes: [Keyframe(start: 0, duration: 1, value: sample(second))]),
      ])
    }
    #expect(error?.code == .duplicate)
    #expect(error?.message.contains(first.rawValue) == true)
    #expect(error?.message.contains(second.rawValue) == true)
  }

  @Test func positionAndSizeMayBeAnimatedTogether() {
    #expect(throws: Never.self) {
      try timeline(tracks: [
        PropertyTrack(
          .position, keyframes: [Keyframe(start: 0, duration: 1, value: sample(.position))]),
        PropertyTrack(.size, keyframes: [Keyframe(start: 0, duration: 1, value: sample(.size))]),
      ])
    }
  }

  // MARK: - Keyframes

  @Test(arguments: [
    (-0.1, 0.5, "start"), (1.5, 0.0, "start"), (0.0, -0.1, "duration"), (0.0, 1.2, "duration"),
  ])
  func keyframeOutsideTheUnitIntervalIsRejected(start: Double, duration: Double, field: String) {
    let error = caughtEngineError {
      try timeline(tracks: [track(.z, start: start, duration: duration)])
    }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("layers[0].tracks[0].keyframes[1].\(field)") == true)
  }

  @Test(arguments: [(0.6, 0.5), (0.5, 0.5000001), (1.0, 0.01)])
  func keyframeEndingAfterTheEndIsRejected(start: Double, duration: Double) {
    let error = caughtEngineError {
      try timeline(tracks: [track(.z, start: start, duration: duration)])
    }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("layers[0].tracks[0].keyframes[1]") == true)
  }

  @Test(arguments: [
    (Double.nan, 0.5, "start"), (0.0, Double.nan, "duration"), (Double.infinity, 0.0, "start"),
    (0.0, -Double.infinity, "duration"),
  ])
  func nonFiniteKeyframeTimeIsRejected(start: Double, duration: Double, field: String) {
    let error = caughtEngineError {
      try timeline(tracks: [track(.z, start: start, duration: duration)])
    }
    #expect(error?.code == .nonFinite)
    #expect(error?.message.contains("keyframes[1].\(field)") == true)
  }

  @Test(arguments: [
    (LayerProperty.alpha, PropertyValue.point(Point(x: 1, y: 1))),
    (.frame, .number(3)), (.position, .size(Size(width: 1, height: 1))), (.hidden, .number(1)),
    (.background, .bool(true)), (.transform, .number(0)), (.rotationY, .transform(.identity)),
    (.size, .rect(Rect(x: 0, y: 0, width: 1, height: 1))),
  ])
  func valueOfTheWrongKindIsRejected(property: LayerProperty, value: PropertyValue) {
    let keyframes = [Keyframe(start: 0, duration: 1, value: value)]
    let error = caughtEngineError {
      try timeline(tracks: [PropertyTrack(property, keyframes: keyframes)])
    }
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("layers[0].tracks[0].keyframes[0].value") == true)
  }

  @Test(arguments: [
    (LayerProperty.z, PropertyValue.number(.nan)), (.alpha, .number(.infinity)),
    (.position, .point(Point(x: 0, y: .nan))),
    (.frame, .rect(Rect(x: 0, y: 0, width: .infinity, height: 1))),
    (.background, .color(Color(red: .nan, green: 0, blue: 0))),
  ])
  func nonFiniteValueIsRejected(property: LayerProperty, value: PropertyValue) {
    let keyframes = [Keyframe(start: 0, duration: 1, value: value)]
    let error = caughtEngineError {
      try timeline(tracks: [PropertyTrack(property, keyframes: keyframes)])
    }
    #expect(error?.code == .nonFinite)
    #expect(error?.message.contains("layers[0].tracks[0].keyframes[0].value") == true)
  }

  @Test func nonFiniteTransformValueIsRejected() {
    var matrix = Transform3D.identity
    matrix.m41 = .nan
    let keyframes = [Keyframe(start: 0, duration: 1, value: .transform(matrix))]
    let error = caughtEngineError {
      try timeline(tracks: [PropertyTrack(.transform, keyframes: keyframes)])
    }
    #expect(error?.code == .nonFinite)
  }

  @Test(arguments: [
    TimingCurve.cubicBezier(x1: -0.1, y1: 0, x2: 1, y2: 1),
    .cubicBezier(x1: 0.5, y1: .nan, x2: 0.5, y2: 1), .steps(count: 0, position: .end),
  ])
  func invalidKeyframeCurveIsRejectedNamingTheKeyframe(curve: TimingCurve) {
    let keyframes = [Keyframe(start: 0, duration: 1, value: .number(1), curve: curve)]
    let error = caughtEngineError {
      try timeline(tracks: [PropertyTrack(.z, keyframes: keyframes)])
    }
    #expect(error?.code == .outOfRange || error?.code == .nonFinite)
    #expect(error?.message.contains("layers[0].tracks[0].keyframes[0].curve") == true)
  }

  @Test func evaluatingAtNonFiniteProgressDoesNotTrap() throws {
    let valid = try timeline(tracks: [track(.z, start: 0, duration: 1)])
    let evaluator = TimelineEvaluator(valid)
    #expect(evaluator.frame(progress: .nan).progress == 0)
    #expect(evaluator.frame(progress: -.infinity).progress == 0)
    #expect(evaluator.frame(progress: .infinity).progress == 1)
    #expect(TimelineEvaluator(valid).frame(progress: .nan).layers.count == 1)
  }

  // MARK: - Helpers

  private func plainLayer(_ id: String) -> TimelineLayer {
    TimelineLayer(id: id, initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
  }

  private func timeline(tracks: [PropertyTrack]) throws(EngineError) -> Timeline {
    var layer = plainLayer("a")
    layer.tracks = tracks
    return try Timeline(duration: 1, layers: [layer])
  }

  /// A track whose second keyframe has the given timing (the first is always valid).
  private func track(_ property: LayerProperty, start: Double, duration: Double) -> PropertyTrack {
    PropertyTrack(
      property,
      keyframes: [
        Keyframe(start: 0, duration: 0.5, value: sample(property)),
        Keyframe(start: start, duration: duration, value: sample(property)),
      ])
  }

  private func sample(_ property: LayerProperty) -> PropertyValue {
    switch property.kind {
    case .number: .number(0.5)
    case .point: .point(Point(x: 1, y: 2))
    case .size: .size(Size(width: 3, height: 4))
    case .rect: .rect(Rect(x: 1, y: 2, width: 3, height: 4))
    case .color: .color(.white)
    case .bool: .bool(true)
    case .transform: .transform(.identity)
    case .layer: .layer(nil)
    }
  }

}
