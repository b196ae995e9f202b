import CTransitionGLES
import Foundation
import Testing
import TransitionJSON
import TransitionRender
import TransitionViewer

@testable import IntegrationSupport

/// The native renderer (CTransitionGLES, docs/renderer-gles.md) against the viewer page in real
/// headless Chromium: every example scene, recorded by the real daemon, at five instants, drawn
/// by both and compared pixel by pixel. Geometry and colours alone (`--no-content`) must match
/// to at most 0.1 % of pixels off by more than 16 of 255; with content (pictures, text, icons)
/// to at most 2 %. One browser serves the whole suite; each recording gets a tab of its own.
/// The figures print one line a scene (the table of docs/renderer-gles.md).
@Suite(
  "native renderer against Chromium", .serialized,
  .enabled(if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
struct NativeRendererParityTests {
  /// A pixel differs when a channel differs by more than this (of 255).
  static let threshold = 16
  /// The share of pixels that may differ: without content, and with it.
  static let geometryLimit = 0.001
  static let contentLimit = 0.02

  /// Whether a frame has a layer with a rounded corner, a shadow or a clip by another layer:
  /// the edges Chromium draws a little off the circle (AppearanceDrawingTests.geometryLimit).
  static func hasRoundedEdges(_ frame: [String: JSONValue]) -> Bool {
    guard case .array(let layers)? = frame["layers"] else { return false }
    return layers.contains { layer in
      guard case .object(let members) = layer else { return false }
      return members["cornerRadius"] != nil || members["shadow"] != nil
        || members["clipTo"] != nil
    }
  }

  /// Draws frames `indices` of `session` of the recording at `path` with the native renderer
  /// and in Chromium (`browser`, 390 × 844), with and without content, and checks each pair within
  /// these limits; returns the worst shares, without and with content.
  static func compare(
    _ path: String, session: String?, indices: (Int) -> [Int], name: String,
    browser: HeadlessBrowser
  ) throws -> [Double] {
    let viewer = try #require(
      ViewerPage.directory(executableDirectory: TransitionctlProducts.directory.path))
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let recorded = try RecordedSession(recording: bytes, session: session)
    let frames = try RecordedFrames(recording: bytes, session: recorded.id).frames
    var worst: [Double] = []
    for drawsContent in [false, true] {
      let native = try NativeRenderer(
        container: recorded.container, scale: 1, background: "#000000", images: images,
        drawsContent: drawsContent)
      let tab = try ViewerCapture(
        browser: browser,
        page: ViewerCapture.Page(
          viewer: URL(fileURLWithPath: viewer).appendingPathComponent("index.html"),
          recording: URL(fileURLWithPath: path), session: recorded.id,
          container: recorded.container, scale: 1, background: "#000000",
          images: URL(fileURLWithPath: images, isDirectory: true), drawsContent: drawsContent))
      defer { tab.close() }
      var largest = 0.0
      for index in indices(frames.count) {
        let chromium = try PNGImage(data: try tab.capture(frame: index))
        try #require(
          chromium.width == native.pixelSize.width && chromium.height == native.pixelSize.height)
        let share = differingShare(
          native.render(frames[index]), chromium.pixels)
        largest = max(largest, share)
        let limit =
          drawsContent
          ? contentLimit
          : hasRoundedEdges(frames[index]) ? AppearanceDrawingTests.geometryLimit : geometryLimit
        #expect(
          share <= limit,
          "\(name) frame \(index) \(drawsContent ? "with" : "without") content: \(share * 100) %")
      }
      worst.append(largest)
    }
    print(
      String(
        format: "%@: %.3f %% without content, %.3f %% with", name, worst[0] * 100, worst[1] * 100))
    return worst
  }

  /// The share of pixels of two RGBA pictures of one size where a colour channel differs by
  /// more than ``threshold``.
  static func differingShare(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && a.count % 4 == 0)
    var differing = 0
    var index = 0
    while index < a.count {
      for channel in 0..<3
      where abs(Int(a[index + channel]) - Int(b[index + channel])) > threshold {
        differing += 1
        break
      }
      index += 4
    }
    return Double(differing) / Double(a.count / 4)
  }

  /// Five instants of a recording of `count` frames: the first, the last and three between.
  static func instants(_ count: Int) -> [Int] {
    Array(Set([0, count / 4, count / 2, 3 * count / 4, count - 1])).sorted()
  }

  @Test("every example scene at five instants, with and without content")
  func everyScene() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let browser = try HeadlessBrowser(
      executable: try #require(HeadlessChromium.executable), width: 390, height: 844)
    defer { browser.close() }
    var lines: [String] = []
    for scene in try TransitionctlProducts.sceneFiles() {
      let name = scene.deletingPathExtension().lastPathComponent
      let path = directory.file("\(name).ndjson")
      let played = try TransitionctlRun.run(
        ["play", scene.path, "--virtual", "--fps", "20", "--out", path], socket: daemon.socketPath)
      try #require(played.status == 0, "\(name): \(played.stderr)")
      let worst = try Self.compare(
        path, session: nil, indices: Self.instants, name: name, browser: browser)
      let figures = worst.map { String(format: "%.3f %%", $0 * 100) }
      lines.append("| `\(name)` | \(figures[0]) | \(figures[1]) |")
    }
    print(
      (["| scene | no content | content |", "| --- | --- | --- |"] + lines).joined(separator: "\n"))
  }

  @Test("every picture, symbol and content kind an example scene names is drawn")
  func everyContentIsDrawn() throws {
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let viewerScript = try String(
      contentsOf: TransitionctlProducts.repository.appendingPathComponent(
        "Sources/TransitionViewer/viewer/frame-renderer.js"), encoding: .utf8)
    var missing: [String] = []
    for scene in try TransitionctlProducts.sceneFiles() {
      let name = scene.lastPathComponent
      var contents: [JSONValue] = []
      func collect(_ value: JSONValue) {
        switch value {
        case .object(let members):
          if let content = members["content"] { contents.append(content) }
          for member in members.values { collect(member) }
        case .array(let items): for item in items { collect(item) }
        default: break
        }
      }
      collect(try JSONValue(parsing: Array(try Data(contentsOf: scene))))
      for content in contents {
        let text = content.serialized
        guard let kind = td_gles_content_kind(text).map({ String(cString: $0) }) else {
          missing.append("\(name): \(text) is not JSON to the native renderer")
          continue
        }
        if kind == "other" { missing.append("\(name): \(text) is of no kind drawn as such") }
        if let picture = content["image"]?.stringValue,
          !FileManager.default.fileExists(atPath: images + "/" + picture)
        {
          missing.append("\(name): the picture \(picture) is not in config/scenes/images")
        }
        for symbol in [content["symbol"]?.stringValue, content["accessory"]?.stringValue]
        where symbol != nil {
          if td_gles_symbol_glyph(symbol!) == nil {
            missing.append("\(name): the native renderer draws no glyph for \(symbol!)")
          }
          let key = symbol!.contains(".") ? "\"\(symbol!)\":" : "\(symbol!):"
          if !viewerScript.contains(key) {
            missing.append("\(name): the viewer page draws no glyph for \(symbol!)")
          }
        }
      }
    }
    #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
  }
}
