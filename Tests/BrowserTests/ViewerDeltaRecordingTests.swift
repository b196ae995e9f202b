import Foundation
import Testing

@testable import IntegrationSupport

/// The viewer page reads delta recordings (`transitionctl play --delta --key-every N`), in
/// headless Chromium: every frame draws as the full recording's frame does, and a frame
/// reached by seeking (rebuilt from the key frame before it) draws the same pixels.
@Suite(
  "viewer: delta recordings in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerDeltaRecordingTests {
  /// Records zoom-present's present at 30 fps, full and as deltas with a key frame every 4.
  static func recordings(in directory: TransitionctlTemporaryDirectory) throws -> (
    full: String, delta: String
  ) {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = try TransitionctlScene(named: "zoom-present-present").url.path
    let full = directory.file("full.ndjson")
    let delta = directory.file("delta.ndjson")
    for (path, extra) in [(full, [String]()), (delta, ["--delta", "--key-every", "4"])] {
      let session = path == full ? "full" : "delta"
      let play = try TransitionctlRun.run(
        ["play", scene, "--virtual", "--fps", "30", "--session", session, "--out", path] + extra,
        socket: daemon.socketPath)
      guard play.status == 0 else {
        throw DaemonHarnessError("play exited \(play.status): \(play.stderr)")
      }
    }
    return (full, delta)
  }

  @Test("every frame of a delta recording draws as the full recording's frame")
  func deltaFramesDrawAsFullFrames() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let (full, delta) = try Self.recordings(in: directory)
    let text = try String(contentsOfFile: delta, encoding: .utf8)
    #expect(text.contains(#""key":false"#))
    let fullDrawn = try ViewerHarness.measure(recording: full, container: (390, 844))
    let deltaDrawn = try ViewerHarness.measure(recording: delta, container: (390, 844))
    #expect(deltaDrawn.frames.count == fullDrawn.frames.count)
    #expect(deltaDrawn.frames.count > 8)
    for (drawn, expected) in zip(deltaDrawn.frames, fullDrawn.frames) {
      #expect(drawn.seq == expected.seq)
      #expect(drawn.layers.map(\.id) == expected.layers.map(\.id), "seq \(drawn.seq)")
      for (layer, want) in zip(drawn.layers, expected.layers) {
        #expect(layer.quad == want.quad, "seq \(drawn.seq) \(layer.id)")
        #expect(layer.drawnOpacity == want.drawnOpacity, "seq \(drawn.seq) \(layer.id)")
      }
    }
  }

  @Test("seeking a delta recording draws the frame from the key frame before it")
  func seekingDrawsTheSamePixels() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let (full, delta) = try Self.recordings(in: directory)
    // Frame 7 is three deltas after key frame 4; frame 2 is before the next key.
    let views = ["f:7", "f:2", "f:-1"]
    let expected = try ViewerHarness.sheet(
      recording: full, scene: nil, views: views, container: (width: 390, height: 844))
    let drawn = try ViewerHarness.sheet(
      recording: delta, scene: nil, views: views, container: (width: 390, height: 844))
    #expect(drawn.count == expected.count)
    for (index, (image, want)) in zip(drawn, expected).enumerated() {
      #expect(image.pixels == want.pixels, "view \(views[index])")
    }
  }
}
