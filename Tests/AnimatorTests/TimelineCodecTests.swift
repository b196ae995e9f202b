import Testing
import TransitionJSON

@testable import TransitionKit

/// The timelines the built-in animators make cross the plugin boundary by the codec's fast
/// paths: written by `Timeline.jsonText` (the value `json` is) and read back by
/// `TimelineReader` (the timeline `Timeline(json:)` reads), for every layout.
@Suite struct TimelineCodecTests {
  static let cases: [(String, @Sendable (Layout) -> TransitionContext)] = [
    ("album-flip", Scenes.albumPush), ("zoom-present", { Scenes.zoomPresent($0) }),
    ("zoom-present", { Scenes.zoomPresent($0, matched: true) }),
    ("default-slide", { Scenes.slide(.push, $0) }),
    ("material-container-transform", { Scenes.zoomPresent($0) }),
    ("material-shared-axis-x", { Scenes.slide(.push, $0) }),
  ]

  @Test(arguments: 0..<cases.count)
  func theBuiltInAnimatorsTimelinesTakeTheFastPaths(index: Int) throws {
    let (name, context) = Self.cases[index]
    for layout in Layout.all {
      let timeline = try DataAnimators.timeline(name, context(layout))
      let text = timeline.jsonText
      #expect(try JSONValue(parsing: text) == timeline.json, "\(name), \(layout)")
      let read = try #require(text.withUnsafeBufferPointer(TimelineReader.timeline))
      #expect(read == (try Timeline(referenceDecodingOf: text)), "\(name), \(layout)")
    }
  }
}
