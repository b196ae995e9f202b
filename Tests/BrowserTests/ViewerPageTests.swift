import Foundation
import Testing

@testable import IntegrationSupport

/// The viewer page's drawing rules on hand-made recordings, in headless Chromium: paint order
/// and its ties, colours, opacity, hidden layers, the container size with and without a
/// `begin` event, and a clear error for a bad recording.
@Suite(
  "viewer: drawing rules in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerPageTests {
  /// Writes `lines` as an NDJSON file in a fresh directory and returns its path.
  static func recording(_ lines: [String]) throws -> String {
    let path = try DaemonHarness.makeTemporaryDirectory() + "/recording.ndjson"
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  @Test("z orders layers, ties go to the later layer in the frame, #rrggbbaa, alpha and hidden")
  func paintOrderAndColours() throws {
    // red (z 1) and blue (z 1, later) overlap: blue on top; green (z 0) comes last in the
    // array but paints below both; grey is white at alpha 0.5 over the black container; the
    // hidden yellow layer is not drawn.
    let path = try Self.recording([
      #"{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":["#
        + ##"{"id":"red","frame":[0,0,20,20],"z":1,"background":"#ff0000ff"},"##
        + ##"{"id":"blue","frame":[10,10,20,20],"z":1,"background":"#0000ffff"},"##
        + ##"{"id":"green","frame":[5,5,30,30],"z":0,"background":"#00ff00ff"},"##
        + ##"{"id":"grey","frame":[40,0,10,10],"z":2,"alpha":0.5,"background":"#ffffffff"},"##
        + ##"{"id":"yellow","frame":[40,20,10,10],"z":3,"hidden":true,"background":"#ffff00ff"}]}"##
    ])
    defer { Self.remove(path) }
    let image = try #require(
      try ViewerHarness.sheet(
        recording: path, scene: nil, views: ["f:0"], container: (width: 60, height: 40)
      ).first)
    func colour(_ x: Int, _ y: Int) -> [Int] {
      let p = image.pixel(x, y)
      return [Int(p.r), Int(p.g), Int(p.b)]
    }
    #expect(colour(15, 15) == [0, 0, 255], "the tie goes to the later layer")
    #expect(colour(7, 7) == [255, 0, 0], "z 1 paints over z 0 whatever the array order")
    #expect(colour(32, 32) == [0, 255, 0])
    #expect(colour(45, 5).allSatisfy { abs($0 - 128) <= 1 }, "alpha 0.5: \(colour(45, 5))")
    #expect(colour(45, 25) == [0, 0, 0], "a hidden layer is not drawn")
  }

  @Test("the container comes from the begin event, else the URL, else the frames' extent")
  func containerSize() throws {
    let frame =
      #"{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[{"id":"a","frame":[10,20,30,40],"z":0}]}"#
    let withoutBegin = try Self.recording([frame])
    defer { Self.remove(withoutBegin) }
    #expect(try ViewerHarness.measure(recording: withoutBegin).container == [40, 60])
    #expect(
      try ViewerHarness.measure(recording: withoutBegin, container: (100, 200)).container
        == [100, 200])
    let withBegin = try Self.recording([
      #"{"event":"begin","session":"s","container":[320,480],"animator":"x","operation":"push"}"#,
      frame,
      #"{"event":"complete","session":"s","finished":true}"#,
    ])
    defer { Self.remove(withBegin) }
    let measured = try ViewerHarness.measure(recording: withBegin, container: (100, 200))
    #expect(measured.container == [320, 480])
    #expect(measured.frames.count == 1)
  }

  @Test("a recording that is not NDJSON is refused with the line number")
  func badRecording() throws {
    let path = try Self.recording([
      #"{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[]}"#, "{not json",
    ])
    defer { Self.remove(path) }
    let error = #expect(throws: DaemonHarnessError.self) {
      try ViewerHarness.requireReady(try ViewerHarness.url([("recording", path)]))
    }
    #expect(
      error?.description.contains("line 2 is not JSON") == true, "\(String(describing: error))")
  }
}
