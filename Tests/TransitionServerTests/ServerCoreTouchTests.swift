import Foundation
import PluginLoader
import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import TransitionServer

/// Touch in the core, on the fake clock: a begin with a touch grabs, updates drag the held
/// layer under the finger and set progress, the release springs the offset away and the
/// session ends exactly on the timeline's end.
@Suite struct ServerCoreTouchTests {
  /// A data animator whose present holds the detail and follows a drag down over 400 points.
  static let registry: PluginRegistry = {
    let directory =
      NSTemporaryDirectory() + "touch-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o755)
    let file = """
      {"operations": {"present": {"duration": 0.5, "gesture": {"hold": {"screen": "to"}, "axis": "y", "range": "container.height * 2"},
        "rules": [{"select": {"screen": "from"}},
                  {"select": {"screen": "to"}, "tracks": [{"property": "scale", "from": 1, "to": 0.5},
                                                           {"property": "translation.y", "from": 0, "to": 50}]}]}}}
      """
    _ = FileManager.default.createFile(
      atPath: directory + "/finger-card.json", contents: Data(file.utf8))
    chmod(directory + "/finger-card.json", 0o644)
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: [], fromEnvironment: [], executableDirectory: nil),
        animatorPaths: [directory]))
    registry.rescan()
    return registry
  }()

  static func drawnDetail(_ frame: JSONValue, grab: Point) throws -> Point {
    let layer = try #require(frame["layers"]?.arrayValue?.first { $0["id"] == "detail" })
    let field = JSONField(layer, path: "")
    var state = LayerState(id: "detail", frame: try field.required("frame").rect())
    if let transform = try field.optional("transform") {
      state.transform = try transform.transform()
    }
    return state.project(grab)
  }

  @Test func aTouchDrivesTheSessionAndTheReleaseEndsExactly() throws {
    let harness = CoreHarness(animators: InProcessAnimatorSource(registry: Self.registry))
    let peer = harness.connect()
    let begin = CoreHarness.beginCrossfadeLine(extra: #","interactive":true,"touch":[50,100]"#)
      .replacingOccurrences(of: #""animator":"crossfade""#, with: #""animator":"finger-card""#)
    let begun = harness.reply(begin, from: peer)
    #expect(begun["ok"] == .bool(true), "\(begun)")
    let session = try #require(begun["session"]?.stringValue)
    let subscribed = harness.send(
      #"{"op":"subscribe","session":"\#(session)","fps":60}"#, from: peer)
    #expect(subscribed.frames.count == 1)

    let grab = Point(x: 50, y: 100)
    for (step, touch) in [Point(x: 60, y: 180), Point(x: 20, y: 260), Point(x: 80, y: 300)]
      .enumerated()
    {
      harness.clock.advance(by: 0.01)
      let lines = harness.send(
        #"{"op":"update","session":"\#(session)","touch":[\#(touch.x),\#(touch.y)]}"#, from: peer)
      #expect(lines.first?["followed"] == "touch", "\(lines)")
      #expect(lines.first?["progress"] == .number((touch.y - grab.y) / 400))
      let frame = try #require(lines.frames.last, "step \(step)")
      let drawn = try Self.drawnDetail(frame, grab: grab)
      #expect(abs(drawn.x - touch.x) < 1e-3 && abs(drawn.y - touch.y) < 1e-3, "\(drawn)")
    }
    let listed = harness.reply(#"{"op":"sessions"}"#, from: peer)["sessions"]?.arrayValue?.first
    #expect(listed?["touch"] == [80, 300])

    // Released with the finger's speed: progress takes its velocity from the drag's axis.
    harness.clock.advance(by: 0.01)
    let finished = harness.send(
      #"{"op":"finish","session":"\#(session)","touchVelocity":[0,800]}"#, from: peer)
    #expect(finished.first?["state"] == "finishing")
    let atRelease = try Self.drawnDetail(try #require(finished.frames.last), grab: grab)
    #expect(abs(atRelease.x - 80) < 1e-3 && abs(atRelease.y - 300) < 1e-3, "no jump: \(atRelease)")
    var last: JSONValue?
    for _ in 0..<200 where harness.core.sessionCount == 1 {
      harness.clock.advance(by: 1.0 / 60)
      if let frame = peer.readLines().frames.last { last = frame }
    }
    #expect(harness.core.sessionCount == 0)
    let final = try #require(last)
    #expect(final["progress"] == .number(1))
    // The timeline's own last frame: scale 0.5, moved down 50, no offset left.
    let centre = try Self.drawnDetail(final, grab: Point(x: 50, y: 100))
    #expect(centre == Point(x: 50, y: 150))
  }
}
