import Foundation
import Testing
import TransitionJSON
import TransitionRender
import TransitionViewer

@testable import IntegrationSupport

/// Appearance (docs/renderers.md, "Appearance") drawn by the viewer page in headless Chromium
/// and by the native renderer, on the hand-made frames of `Tests/Fixtures/appearance`: corner
/// radius with and without `clips`, borders, shadows, and `clipTo` under a scale, a 2D rotation,
/// a chain and a 3D rotation. The viewer's drawing of each frame is held to its golden picture
/// (`TRANSITIOND_RECORD_GOLDEN=1` rewrites them, only after a change to the drawing that is
/// meant); the native renderer's to Chromium's within the parity limits.
@Suite(
  "appearance in Chromium and the native renderer", .serialized,
  .enabled(
    if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
struct AppearanceDrawingTests {
  static var fixtures: URL {
    TransitionctlProducts.repository.appendingPathComponent("Tests/Fixtures/appearance")
  }
  static var recording: URL { fixtures.appendingPathComponent("appearance.ndjson") }

  /// A viewer page on the fixture recording, in `browser`.
  static func tab(_ browser: HeadlessBrowser, drawsContent: Bool) throws -> ViewerCapture {
    let viewer = try #require(
      ViewerPage.directory(executableDirectory: TransitionctlProducts.directory.path))
    return try ViewerCapture(
      browser: browser,
      page: ViewerCapture.Page(
        viewer: URL(fileURLWithPath: viewer).appendingPathComponent("index.html"),
        recording: recording, session: "look", container: (390, 844), scale: 1,
        background: "#000000",
        images: TransitionctlProducts.scenes.appendingPathComponent("images", isDirectory: true),
        drawsContent: drawsContent))
  }

  static func frames() throws -> [[String: JSONValue]] {
    let bytes = Array(try Data(contentsOf: recording))
    return try RecordedFrames(recording: bytes, session: "look").frames
  }

  @Test("the viewer draws each frame as its golden picture")
  func viewerMatchesGoldens() throws {
    let browser = try HeadlessBrowser(
      executable: try #require(HeadlessChromium.executable), width: 390, height: 844)
    defer { browser.close() }
    let tab = try Self.tab(browser, drawsContent: true)
    defer { tab.close() }
    let record = ProcessInfo.processInfo.environment["TRANSITIOND_RECORD_GOLDEN"] == "1"
    for index in try Self.frames().indices {
      let golden = Self.fixtures.appendingPathComponent("viewer-frame-\(index).png")
      let captured = try tab.capture(frame: index)
      if record {
        try Data(captured).write(to: golden)
        continue
      }
      let drawn = try PNGImage(data: captured)
      let expected = try PNGImage(data: Array(try Data(contentsOf: golden)))
      let difference = drawn.difference(
        from: expected, threshold: ViewerSceneTests.channelTolerance)
      #expect(
        difference.pixels <= ViewerSceneTests.differingPixelLimit,
        "frame \(index): \(difference.pixels) pixels differ by more than \(ViewerSceneTests.channelTolerance) (largest \(difference.largest))"
      )
    }
  }

  /// Measured: 0.125 %, 0.460 % and 0.668 % of pixels without content, the edges of rounded
  /// boxes only (Chromium draws a corner's arc as quadratic curves, up to 0.25 px off the
  /// circle, and a rotated or perspective layer as a picture resampled through its transform).
  static let geometryLimit = 0.008

  @Test("the native renderer draws each frame as Chromium does, with and without content")
  func nativeMatchesChromium() throws {
    let browser = try HeadlessBrowser(
      executable: try #require(HeadlessChromium.executable), width: 390, height: 844)
    defer { browser.close() }
    let frames = try Self.frames()
    for drawsContent in [false, true] {
      let native = try NativeRenderer(
        container: (390, 844), scale: 1, background: "#000000",
        images: TransitionctlProducts.scenes.appendingPathComponent("images").path,
        drawsContent: drawsContent)
      let tab = try Self.tab(browser, drawsContent: drawsContent)
      defer { tab.close() }
      for (index, frame) in frames.enumerated() {
        let chromium = try PNGImage(data: try tab.capture(frame: index))
        let share = NativeRendererParityTests.differingShare(native.render(frame), chromium.pixels)
        let limit = drawsContent ? NativeRendererParityTests.contentLimit : Self.geometryLimit
        print(
          "appearance frame \(index) \(drawsContent ? "with" : "without") content: \(String(format: "%.3f", share * 100)) %"
        )
        #expect(
          share <= limit,
          "frame \(index) \(drawsContent ? "with" : "without") content: \(share * 100) %")
      }
    }
  }
}
