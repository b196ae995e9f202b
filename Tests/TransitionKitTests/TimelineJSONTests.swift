import Testing
import TransitionJSON

@testable import TransitionKit

/// The timeline's JSON form: every property, mode and curve survives encode → decode, and
/// decoding errors name the path of the offending field.
@Suite struct TimelineJSONTests {
  // MARK: - Round trips

  @Test func timelineWithEveryPropertyAndCurveRoundTrips() throws {
    let timeline = try Self.everything()
    #expect(try Timeline(json: timeline.json) == timeline)
  }

  @Test func timelineRoundTripsThroughText() throws {
    let timeline = try Self.everything()
    let text = timeline.json.serialized
    let decoded = try Timeline(jsonBytes: Array(text.utf8))
    #expect(decoded == timeline)
    #expect(decoded.json.serialized == text)
  }

  /// What a timeline's JSON leaves out: the value a layer of the same frame starts with.
  @Test func aPropertyHasItsDefaultValueWhenAFreshLayerHasTheSame() throws {
    // The fixture's layer sets every property away from its default.
    let changed = try Self.everything().layers[0].initial
    let defaults = LayerAttributes(frame: changed.frame)
    for property in LayerProperty.allCases {
      #expect(defaults.hasDefaultValue(of: property), "\(property)")
      let same = changed.value(of: property) == defaults.value(of: property)
      #expect(changed.hasDefaultValue(of: property) == same, "\(property)")
    }
  }

  @Test func jsonTextIsTheTimelinesJSON() throws {
    let everything = try Self.everything()
    let withGestureAndWarnings = try Timeline(json: try Self.document())
    let plain = try Timeline(
      duration: 2,
      layers: [
        TimelineLayer(
          id: "a\"\u{1}é",
          initial: LayerAttributes(frame: Rect(x: -1, y: 0.5, width: 0, height: 3)),
          tracks: [
            PropertyTrack(.alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
          ])
      ])
    for timeline in [everything, withGestureAndWarnings, plain] {
      #expect(try JSONValue(parsing: timeline.jsonText) == timeline.json)
      #expect(try Timeline(jsonBytes: timeline.jsonText) == timeline)
    }
  }

  @Test func roundTripEvaluatesToTheSameFrames() throws {
    let timeline = try Self.everything()
    let decoded = try Timeline(jsonBytes: Array(timeline.json.serialized.utf8))
    for progress in [0, 0.2, 0.45, 0.7, 1] {
      #expect(
        TimelineEvaluator(decoded).frame(progress: progress)
          == TimelineEvaluator(timeline).frame(progress: progress))
    }
  }

  @Test(arguments: try allCurves())
  func curveRoundTrips(curve: TimingCurve) throws {
    #expect(try TimingCurve(json: JSONField(curve.json, path: "curve")) == curve)
  }

  @Test func presetCurvesAreWrittenByName() {
    #expect(TimingCurve.linear.json == .string("linear"))
    #expect(TimingCurve.easeIn.json == .string("easeIn"))
    #expect(TimingCurve.easeOut.json == .string("easeOut"))
    #expect(TimingCurve.easeInEaseOut.json == .string("easeInEaseOut"))
    #expect(TimingCurve.systemDefault.json == .string("default"))
  }

  @Test func defaultsAreLeftOut() throws {
    let layer = TimelineLayer(
      id: "a", initial: LayerAttributes(frame: Rect(x: 1, y: 2, width: 3, height: 4)),
      tracks: [
        PropertyTrack(.z, keyframes: [Keyframe(start: 0.25, duration: 0.5, value: .number(2))])
      ])
    let json = try Timeline(duration: 0.5, layers: [layer]).json
    #expect(
      json.serialized
        == #"{"duration":0.5,"layers":[{"frame":[1,2,3,4],"id":"a","tracks":[{"keyframes":[{"duration":0.5,"start":0.25,"value":2}],"property":"z"}]}]}"#
    )
  }

  // MARK: - Decoding

  @Test func documentedExampleDecodes() throws {
    let text = """
      {"duration": 1.0, "curve": "easeOut",
       "layers": [{"id": "cover", "frame": [20, 100, 170, 170], "anchor": [0, 0.5], "z": 10,
                   "perspective": -0.002, "content": {"image": "a.png"},
                   "tracks": [{"property": "rotation.y", "mode": "linear",
                               "keyframes": [{"start": 0, "duration": 0.5, "value": -3.14159,
                                              "curve": "linear"}]}]}]}
      """
    let timeline = try Timeline(jsonBytes: Array(text.utf8))
    #expect(timeline.duration == 1)
    #expect(timeline.curve == .easeOut)
    let layer = timeline.layers[0]
    #expect(layer.id == "cover")
    #expect(layer.initial.frame == Rect(x: 20, y: 100, width: 170, height: 170))
    #expect(layer.initial.anchor == Point(x: 0, y: 0.5))
    #expect(layer.initial.z == 10)
    #expect(layer.initial.perspective == -0.002)
    #expect(layer.initial.alpha == 1)
    #expect(layer.content == .object(["image": .string("a.png")]))
    #expect(
      layer.tracks == [
        PropertyTrack(
          .rotationY, keyframes: [Keyframe(start: 0, duration: 0.5, value: .number(-3.14159))])
      ])
  }

  @Test func omittedFieldsTakeTheirDefaults() throws {
    let text = """
      {"duration": 2, "layers": [{"id": "a", "frame": [0, 0, 1, 1], "scale": 2,
        "tracks": [{"property": "alpha", "keyframes": [{"value": 0}]}]}]}
      """
    let timeline = try Timeline(jsonBytes: Array(text.utf8))
    #expect(timeline.curve == .linear)
    #expect(timeline.layers[0].initial.scaleX == 2)
    #expect(timeline.layers[0].initial.scaleY == 2)
    #expect(
      timeline.layers[0].tracks == [
        PropertyTrack(
          .alpha, mode: .linear,
          keyframes: [Keyframe(start: 0, duration: 1, value: .number(0), curve: .linear)])
      ])
  }

  @Test func curveObjectsDecode() throws {
    let field = { (text: String) throws -> TimingCurve in
      try TimingCurve(json: JSONField(try JSONValue(parsing: text), path: "curve"))
    }
    #expect(
      try field(#"{"bezier": [0.1, -0.2, 0.3, 1.4]}"#)
        == .cubicBezier(x1: 0.1, y1: -0.2, x2: 0.3, y2: 1.4))
    #expect(try field(#"{"steps": 5}"#) == .steps(count: 5, position: .end))
    #expect(try field(#"{"steps": 2, "position": "start"}"#) == .steps(count: 2, position: .start))
    #expect(
      try field(#"{"spring": {"stiffness": 300, "damping": 20}}"#)
        == .spring(try Spring(mass: 1, stiffness: 300, damping: 20, initialVelocity: 0)))
    #expect(
      try field(#"{"spring": {"duration": 0.5, "bounce": 0.2, "velocity": 1}}"#)
        == .spring(try Spring(duration: 0.5, bounce: 0.2, initialVelocity: 1)))
  }

  // MARK: - Errors name the path

  @Test func keyframeStartOutOfRangeNamesItsPath() {
    let error = decodeError(keyframe2: #"{"start": 1.5, "duration": 0, "value": 1}"#)
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("layers[1].tracks[0].keyframes[2].start") == true)
  }

  @Test func keyframeStartOfTheWrongTypeNamesItsPath() {
    let error = decodeError(keyframe2: #"{"start": "soon", "value": 1}"#)
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("layers[1].tracks[0].keyframes[2].start") == true)
  }

  @Test func keyframeEndingLateNamesItsPath() {
    let error = decodeError(keyframe2: #"{"start": 0.8, "duration": 0.3, "value": 1}"#)
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("layers[1].tracks[0].keyframes[2]") == true)
  }

  @Test func keyframeValueErrorsNameTheirPath() {
    let wrongKind = decodeError(keyframe2: #"{"value": [1, 2]}"#)
    #expect(wrongKind?.code == .invalidValue)
    #expect(wrongKind?.message.contains("layers[1].tracks[0].keyframes[2].value") == true)
    let missing = decodeError(keyframe2: #"{"start": 0}"#)
    #expect(missing?.code == .missingField)
    #expect(missing?.message.contains("layers[1].tracks[0].keyframes[2].value") == true)
  }

  @Test func unknownKeyframeMemberNamesItsPath() {
    let error = decodeError(keyframe2: #"{"value": 1, "delay": 0.1}"#)
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("layers[1].tracks[0].keyframes[2].delay") == true)
  }

  @Test func badKeyframeCurvesNameTheirPath() {
    for curve in [
      #""bouncy""#, #"{"bezier": [2, 0, 0.5, 1]}"#, #"{"steps": 0}"#,
      #"{"spring": {"stiffness": -1, "damping": 1}}"#, "42",
    ] {
      let error = decodeError(keyframe2: #"{"value": 1, "curve": "# + curve + "}")
      #expect(error != nil, "\(curve) was accepted")
      #expect(
        error?.message.contains("layers[1].tracks[0].keyframes[2].curve") == true,
        "\(error?.message ?? "")")
    }
  }

  @Test func trackErrorsNameTheirPath() {
    let property = decodeError(track: #"{"property": "opacity", "keyframes": [{"value": 1}]}"#)
    #expect(property?.code == .invalidValue)
    #expect(property?.message.contains("layers[1].tracks[0].property") == true)
    #expect(property?.message.contains("opacity") == true)
    let mode = decodeError(
      track: #"{"property": "z", "mode": "spline", "keyframes": [{"value": 1}]}"#)
    #expect(mode?.code == .invalidValue)
    #expect(mode?.message.contains("layers[1].tracks[0].mode") == true)
    let keyframes = decodeError(track: #"{"property": "z"}"#)
    #expect(keyframes?.code == .missingField)
    #expect(keyframes?.message.contains("layers[1].tracks[0].keyframes") == true)
    let empty = decodeError(track: #"{"property": "z", "keyframes": []}"#)
    #expect(empty?.code == .empty)
    #expect(empty?.message.contains("layers[1].tracks[0]") == true)
  }

  @Test func layerErrorsNameTheirPath() {
    let cases: [(String, EngineError.Code, String)] = [
      (#"{"id": "b", "frame": [0, 0, 1]}"#, .invalidValue, "layers[1].frame"),
      (#"{"id": "b"}"#, .missingField, "layers[1].frame"),
      (#"{"frame": [0, 0, 1, 1]}"#, .missingField, "layers[1].id"),
      (#"{"id": "b", "frame": [0, 0, 1, 1], "opacity": 1}"#, .invalidValue, "layers[1].opacity"),
      (
        ##"{"id": "b", "frame": [0, 0, 1, 1], "background": "#12"}"##, .invalidValue,
        "layers[1].background"
      ),
      (
        #"{"id": "b", "frame": [0, 0, 1, 1], "transform": [1, 0, 0]}"#, .invalidValue,
        "layers[1].transform"
      ),
      (#"{"id": "b", "frame": [0, 0, 1, 1], "alpha": "half"}"#, .invalidValue, "layers[1].alpha"),
      (#"{"id": "a", "frame": [0, 0, 1, 1]}"#, .duplicate, "layers[1].id"),
    ]
    for (layer, code, path) in cases {
      let error = rootError(
        #"{"duration": 1, "layers": [{"id": "a", "frame": [0, 0, 1, 1]}, "# + layer + "]}")
      #expect(error?.code == code, "\(layer)")
      #expect(error?.message.contains(path) == true, "\(error?.message ?? "accepted")")
    }
  }

  @Test func rootErrorsNameTheirField() {
    let cases: [(String, EngineError.Code, String)] = [
      (#"{"layers": []}"#, .missingField, "duration"),
      (#"{"duration": 1}"#, .missingField, "layers"),
      (#"{"duration": 1, "layers": [], "extra": 1}"#, .invalidValue, "extra"),
      (#"{"duration": 1, "layers": []}"#, .empty, "layer"),
      (
        #"{"duration": -1, "layers": [{"id": "a", "frame": [0, 0, 1, 1]}]}"#, .outOfRange,
        "duration"
      ),
      (
        #"{"duration": 1, "curve": "bouncy", "layers": [{"id": "a", "frame": [0, 0, 1, 1]}]}"#,
        .invalidValue, "curve"
      ),
      (#"{"duration": 1, "layers": {}}"#, .invalidValue, "layers"),
      ("[1, 2]", .invalidValue, "the document must be an object"),
    ]
    for (text, code, name) in cases {
      let error = rootError(text)
      #expect(error?.code == code, "\(text)")
      #expect(error?.message.contains(name) == true, "\(error?.message ?? "accepted")")
    }
  }

  @Test func malformedTextNamesTheByte() {
    let error = rootError(#"{"duration": 1,, "layers": []}"#)
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("at byte 15") == true)
  }

  // MARK: - Helpers

  static func allCurves() throws -> [TimingCurve] {
    [
      .linear, .easeIn, .easeOut, .easeInEaseOut, .systemDefault,
      .cubicBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.6), .steps(count: 4, position: .start),
      .steps(count: 3, position: .end),
      .spring(try Spring(mass: 1.5, stiffness: 220, damping: 18, initialVelocity: -0.75)),
      .spring(try Spring(duration: 0.45, bounce: 0.25)),
    ]
  }

  /// Every property, mode and kind of curve, with content, a gesture and warnings.
  static func document() throws -> JSONValue {
    guard case .object(var members) = try everything().json else {
      throw EngineError(.invalidValue, "a timeline's JSON is an object")
    }
    members["gesture"] = .object([
      "hold": .array([.string("second")]), "axis": .string("y"), "range": .number(600),
      "direction": .number(-1),
    ])
    members["warnings"] = .array([.string("one"), .string("two")])
    return .object(members)
  }

  /// A timeline that uses every property, every calculation mode and every kind of curve.
  static func everything() throws -> Timeline {
    let curves = try Self.allCurves()
    var initial = LayerAttributes(frame: Rect(x: 20.5, y: 100, width: 170, height: 1.0 / 3))
    initial.anchor = Point(x: 0, y: 0.5)
    initial.alpha = 0.9
    initial.hidden = true
    initial.z = -2
    initial.background = try Color(hex: "#10203040")
    initial.transform = .translation(x: 1, y: 2, z: 3)
    initial.rotationX = 0.1
    initial.rotationY = -0.2
    initial.rotationZ = 0.3
    initial.scaleX = 1.5
    initial.scaleY = 0.5
    initial.translationX = 4
    initial.translationY = -5
    initial.translationZ = 6
    initial.perspective = -1.0 / 500
    func key(_ start: Double, _ duration: Double, _ value: PropertyValue, _ curve: Int) -> Keyframe
    {
      Keyframe(start: start, duration: duration, value: value, curve: curves[curve % curves.count])
    }
    let matrix = Transform3D.rotation(angle: 0.5, x: 0, y: 1, z: 0).concatenating(
      .perspective(m34: -0.001))
    let first: [PropertyTrack] = [
      PropertyTrack(
        .frame, mode: .cubic,
        keyframes: [
          key(0, 0.5, .rect(Rect(x: 1, y: 2, width: 3, height: 4)), 0),
          key(0.5, 0.5, .rect(Rect(x: 0.1, y: 0.2, width: 0.3, height: 0.4)), 1),
        ]),
      PropertyTrack(
        .anchor, mode: .paced,
        keyframes: [
          key(0.1, 0.2, .point(Point(x: 1, y: 0)), 2),
          key(0.3, 0.7, .point(Point(x: 0.5, y: 0.5)), 3),
        ]),
      PropertyTrack(.alpha, mode: .discrete, keyframes: [key(0, 1, .number(0.25), 4)]),
      PropertyTrack(.hidden, keyframes: [key(0.5, 0, .bool(false), 5)]),
      PropertyTrack(.z, keyframes: [key(0, 0.3, .number(7), 6), key(0.2, 0.8, .number(-7), 7)]),
      PropertyTrack(
        .background,
        keyframes: [
          key(0, 0.5, .color(try Color(hex: "#abcdef12")), 8), key(0.5, 0.5, .color(nil), 9),
        ]),
      PropertyTrack(.transform, keyframes: [key(0, 1, .transform(matrix), 8)]),
      PropertyTrack(.rotationX, keyframes: [key(0, 1, .number(1.0 / 3), 9)]),
      PropertyTrack(.rotationY, keyframes: [key(0, 1, .number(-.pi), 0)]),
      PropertyTrack(.rotationZ, keyframes: [key(0, 1, .number(0.1), 1)]),
      PropertyTrack(.scaleX, keyframes: [key(0, 1, .number(2), 2)]),
      PropertyTrack(.scaleY, keyframes: [key(0, 1, .number(0.5), 3)]),
      PropertyTrack(.translationX, keyframes: [key(0, 1, .number(1e-7), 4)]),
      PropertyTrack(.translationY, keyframes: [key(0, 1, .number(-123.456), 5)]),
      PropertyTrack(
        .translationZ, keyframes: [key(0, 1, .number(Timeline.maximumValueMagnitude), 6)]),
      PropertyTrack(.perspective, keyframes: [key(0, 1, .number(-0.002), 7)]),
    ]
    let second: [PropertyTrack] = [
      PropertyTrack(
        .position, mode: .cubic, keyframes: [key(0, 0.4, .point(Point(x: 195, y: 422)), 8)]),
      PropertyTrack(
        .size, mode: .paced, keyframes: [key(0.4, 0.6, .size(Size(width: 390, height: 844)), 9)]),
      PropertyTrack(.scale, keyframes: [key(0, 1, .number(1.25), 3)]),
    ]
    return try Timeline(
      duration: 0.65, curve: .cubicBezier(x1: 0.2, y1: 0.9, x2: 0.1, y2: 1),
      layers: [
        TimelineLayer(
          id: "everything", initial: initial,
          content: .object(["image": .string("a.png"), "n": .number(3)]), tracks: first),
        TimelineLayer(
          id: "second", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)),
          content: .string("text"), tracks: second),
      ])
  }

  private func decodeError(keyframe2: String) -> EngineError? {
    decodeError(
      track: #"{"property": "z", "keyframes": [{"value": 1}, {"value": 2}, "# + keyframe2 + "]}")
  }

  private func decodeError(track: String) -> EngineError? {
    rootError(
      #"{"duration": 1, "layers": [{"id": "a", "frame": [0, 0, 1, 1]}, {"id": "b", "frame": [0, 0, 1, 1], "tracks": ["#
        + track + "]}]}")
  }

  private func rootError(_ text: String) -> EngineError? {
    do {
      _ = try Timeline(jsonBytes: Array(text.utf8))
      return nil
    } catch {
      return error
    }
  }
}
