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
