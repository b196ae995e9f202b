import Testing
import TransitionJSON

@testable import TransitionKit

/// The timelines the built-in animators make cross the plugin boundary in the codec's fast
/// path, the binary form, and read back as the reference JSON codec reads their JSON, for
/// every layout.
@Suite struct TimelineCodecTests {
  static let cases: [(String, @Sendable (Layout) -> TransitionContext)] = [
    ("album-flip", Scenes.albumPush), ("zoom-present", { Scenes.zoomPresent($0) }),
    ("zoom-present", { Scenes.zoomPresent($0, matched: true) }),
    ("default-slide", { Scenes.slide(.push, $0) }),
    ("material-container-transform", { Scenes.zoomPresent($0) }),
    ("material-shared-axis-x", { Scenes.slide(.push, $0) }),
  ]

  @Test(arguments: 0..<cases.count)
  func theBuiltInAnimatorsTimelinesReadBackFromTheFastPathAsFromTheReference(index: Int) throws {
    let (name, context) = Self.cases[index]
    for layout in Layout.all {
      let timeline = try DataAnimators.timeline(name, context(layout))
      let text = timeline.jsonText
      #expect(try JSONValue(parsing: text) == timeline.json, "\(name), \(layout)")
      let reference = try Timeline(jsonBytes: text)
      #expect(try Timeline(binary: timeline.binaryEncoded) == reference, "\(name), \(layout)")
    }
  }
}
