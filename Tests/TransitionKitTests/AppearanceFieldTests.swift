import Testing
import TransitionJSON
import TransitionKit

/// The layer's appearance fields from a timeline to a frame: evaluated, interpolated, read and
/// written by every timeline codec, and refused when out of range.
@Suite struct AppearanceFieldTests {
  static let text = """
    {"duration": 1, "layers": [{"id": "card", "frame": [0, 0, 100, 50], "cornerRadius": 4,
      "tracks": [{"property": "cornerRadius", "keyframes": [{"value": 24}]}]}]}
    """

  @Test func theRadiusInterpolatesLinearly() throws {
    let timeline = try Timeline(jsonBytes: Array(Self.text.utf8))
    let evaluator = TimelineEvaluator(timeline)
    #expect(evaluator.frame(progress: 0).layers[0].cornerRadius == 4)
    #expect(evaluator.frame(progress: 0.5).layers[0].cornerRadius == 14)
    #expect(evaluator.frame(progress: 1).layers[0].cornerRadius == 24)
  }

  @Test func everyCodecCarriesTheRadius() throws {
    let timeline = try Timeline(jsonBytes: Array(Self.text.utf8))
    #expect(timeline.layers[0].initial.cornerRadius == 4)
    #expect(try Timeline(json: timeline.json) == timeline)
    #expect(try Timeline(binary: timeline.binaryEncoded) == timeline)
    #expect(try Timeline(jsonBytes: Array(timeline.json.serialized.utf8)) == timeline)
  }

  @Test func aNegativeRadiusIsRefusedWithItsPath() throws {
    let initial = Self.text.replacingOccurrences(
      of: "\"cornerRadius\": 4", with: "\"cornerRadius\": -1")
    #expect(throws: EngineError.self) { try Timeline(jsonBytes: Array(initial.utf8)) }
    do {
      _ = try Timeline(jsonBytes: Array(initial.utf8))
    } catch {
      #expect(error.message.contains("layers[0].cornerRadius"))
    }
    let keyframe = Self.text.replacingOccurrences(of: "\"value\": 24", with: "\"value\": -2")
    do {
      _ = try Timeline(jsonBytes: Array(keyframe.utf8))
      Issue.record("a negative keyframe radius was taken")
    } catch {
      #expect(error.code == .outOfRange)
      #expect(error.message.contains("layers[0].tracks[0].keyframes[0].value"))
    }
  }
}

/// The border, the shadow, `clips` and `clipTo`: their evaluation, their frame text and the
/// clips a timeline or a context refuses.
@Suite struct AppearanceClipTests {
  static let text = """
    {"duration": 1, "layers": [
      {"id": "container", "frame": [0, 0, 100, 100], "cornerRadius": 12, "clips": true,
       "border.width": 2, "border.color": "#ff0000ff",
       "shadow.color": "#00000080", "shadow.blur": 8, "shadow.offset": [0, 4],
       "tracks": [
         {"property": "shadow.blur", "keyframes": [{"value": 24}]},
         {"property": "border.color", "keyframes": [{"value": "#0000ffff"}]}]},
      {"id": "content", "frame": [0, 0, 100, 300], "clipTo": "container",
       "tracks": [{"property": "clipTo", "keyframes": [{"start": 0.5, "duration": 0, "value": null}]}]}]}
    """

  func layers(at progress: Double) throws -> [LayerState] {
    let timeline = try Timeline(jsonBytes: Array(Self.text.utf8))
    return TimelineEvaluator(timeline).frame(progress: progress).layers
  }

  @Test func bordersAndShadowsInterpolateAndClipsSwitchAtTheirKeyframe() throws {
    let start = try layers(at: 0)
    #expect(start[0].clips)
    #expect(start[0].border == LayerBorder(width: 2, color: Color(red: 1, green: 0, blue: 0)))
    #expect(start[0].shadow.blur == 8)
    #expect(start[0].shadow.offset == Point(x: 0, y: 4))
    #expect(start[1].clipTo == "container")
    let middle = try layers(at: 0.5)
    #expect(middle[0].shadow.blur == 16)
    #expect(middle[0].border.color == Color(red: 0.5, green: 0, blue: 0.5))
    #expect(try layers(at: 0.49)[1].clipTo == "container")
    #expect(middle[1].clipTo == nil)
  }

  @Test func aBorderOrShadowThatDrawsNothingIsNone() {
    let faint = Color(red: 0, green: 0, blue: 0, alpha: 0.001)
    #expect(LayerShadow(evaluatedColor: faint, blur: 3, offset: Point(x: 0, y: 1)) == .none)
    #expect(LayerShadow(evaluatedColor: nil, blur: 3, offset: Point(x: 0, y: 1)) == .none)
    #expect(LayerBorder(evaluatedWidth: 0, color: .black) == .none)
    #expect(LayerBorder(evaluatedWidth: 1, color: nil) == LayerBorder(width: 1, color: .clear))
  }

  @Test func aFrameWritesEachFieldInItsWireForm() throws {
    var layer = try layers(at: 0)[0]
    var text = ByteSink(capacity: 512)
    withUnsafePointer(to: &layer) { layer in
      for field in LayerFields.each { field.writeFull(of: layer, into: &text) }
    }
    let written = String(decoding: text.bytes, as: UTF8.self)
    #expect(
      written.hasSuffix(
        ",\"cornerRadius\":12,\"clips\":true,\"border\":{\"width\":2,\"color\":\"#ff0000ff\"},"
          + "\"shadow\":{\"color\":\"#00000080\",\"blur\":8,\"offset\":[0,4]}"))
  }

  @Test func everyCodecCarriesTheAppearance() throws {
    let timeline = try Timeline(jsonBytes: Array(Self.text.utf8))
    #expect(try Timeline(json: timeline.json) == timeline)
    #expect(try Timeline(binary: timeline.binaryEncoded) == timeline)
    #expect(try Timeline(jsonBytes: Array(timeline.json.serialized.utf8)) == timeline)
  }

  func refusal(_ text: String) -> EngineError? {
    do {
      _ = try Timeline(jsonBytes: Array(text.utf8))
      return nil
    } catch { return error }
  }

  @Test func aClipToNoLayerOrALoopIsRefused() throws {
    let unknown = refusal(
      Self.text.replacingOccurrences(
        of: "\"clipTo\": \"container\"", with: "\"clipTo\": \"nobody\""))
    #expect(unknown?.message.contains("layers[1].clipTo \"nobody\" is no layer") == true)
    let itself = refusal(
      Self.text.replacingOccurrences(
        of: "\"clipTo\": \"container\"", with: "\"clipTo\": \"content\""))
    #expect(itself?.message.contains("forms a loop") == true)
    let loop = refusal(
      Self.text.replacingOccurrences(
        of: "\"clips\": true,", with: "\"clips\": true, \"clipTo\": \"content\","))
    #expect(loop?.message.contains("\"container\" → \"content\" → \"container\"") == true)
    let negative = refusal(
      Self.text.replacingOccurrences(of: "\"shadow.blur\": 8", with: "\"shadow.blur\": -8"))
    #expect(negative?.message.contains("layers[0].shadow.blur must not be negative") == true)
  }

  @Test func aContextCarriesTheAppAppearanceAndRefusesBadOnes() throws {
    func context(_ layer: String) -> String {
      """
      {"operation": "push", "container": [100, 200],
       "from": {"layers": [{"id": "card", "frame": [0, 0, 50, 50]}, \(layer)]}, "to": {"layers": []}}
      """
    }
    let good = try TransitionContext(
      jsonBytes: Array(
        context(
          """
          {"id": "photo", "frame": [0, 0, 50, 80], "cornerRadius": 6, "clips": true, "clipTo": "card",
           "border": {"width": 1, "color": "#ffffffff"}, "shadow": {"color": "#00000040", "blur": 4}}
          """
        ).utf8))
    let photo = try #require(good.from.layer("photo"))
    #expect(photo.cornerRadius == 6 && photo.clips && photo.clipTo == "card")
    #expect(photo.border == LayerBorder(width: 1, color: .white))
    #expect(photo.shadow.blur == 4 && photo.shadow.offset == Point(x: 0, y: 0))
    #expect(try TransitionContext(json: good.json) == good)
    for (bad, expected) in [
      ("\"cornerRadius\": -1", "from.layers[1].cornerRadius must not be negative"),
      (
        "\"border\": {\"width\": -2, \"color\": \"#000000ff\"}", "border.width must not be negative"
      ),
      ("\"shadow\": {\"color\": \"red\"}", "shadow.color"),
      ("\"clipTo\": \"nobody\"", "from.layers[1].clipTo \"nobody\" is no layer of the screen"),
      ("\"clipTo\": \"photo\"", "from.layers[1].clipTo forms a loop"),
    ] {
      let text = context("{\"id\": \"photo\", \"frame\": [0, 0, 50, 80], \(bad)}")
      do {
        _ = try TransitionContext(jsonBytes: Array(text.utf8))
        Issue.record("\(bad) was taken")
      } catch {
        #expect(error.message.contains(expected), "\(error.message)")
      }
    }
  }
}
