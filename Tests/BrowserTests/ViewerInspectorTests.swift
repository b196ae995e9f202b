import Foundation
import Testing

@testable import IntegrationSupport

/// The viewer's timeline inspector in real Chromium, on a recording the real daemon made with
/// `transitionctl play` (whose `begin` event carries the timeline): the lanes are the animated
/// layers, and the plotted curve, computed from the timeline, passes through the frames' values.
@Suite("viewer: the timeline inspector", .serialized)
struct ViewerInspectorTests {
  /// Plays the example scene `scene` on the virtual clock at 30 fps with `flags` into `path`
  /// (the `begin` event carries the timeline); returns the recording and the ids of the
  /// timeline's animated layers.
  static func played(
    _ scene: String, flags: [String], into path: String, daemon: TransitionctlDaemon
  ) throws -> (path: String, recording: TransitionctlRecording, animated: [String]) {
    let scene = TransitionctlProducts.scenes.appendingPathComponent("\(scene).json").path
    let played = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "30"] + flags + ["--out", path],
      socket: daemon.socketPath)
    #expect(played.status == 0, "\(played.stderr)")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let recording = try TransitionctlRecording(lines)
    let timeline = try #require(recording.begin["timeline"] as? [String: Any], "no timeline")
    let layers = try #require(timeline["layers"] as? [[String: Any]])
    let animated = layers.filter { !(($0["tracks"] as? [Any]) ?? []).isEmpty }
      .compactMap { $0["id"] as? String }
    return (path, recording, animated)
  }

  @Test(
    "album-flip push: a lane per animated layer; each photo's alpha curve through every frame",
    .enabled(if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
  func albumPush() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let (path, recording, animated) = try Self.played(
      "album-flip-push", flags: [], into: directory.file("flip.ndjson"), daemon: daemon)
    #expect(animated.count > 10)
    // The grid's cells, photo-1 … photo-15 (not photo-grid-navbar).
    let photos = animated.filter {
      $0.hasPrefix("photo-") && $0.dropFirst("photo-".count).allSatisfy(\.isNumber)
    }
    #expect(photos.count == 15)

    for photo in [photos[0], photos[7], photos[14]] {
      let url = try ViewerHarness.url([
        ("recording", path), ("measure", "inspector"), ("select", photo), ("property", "alpha"),
      ])
      let dom = try HeadlessChromium.dumpDOM(url)
      guard let start = dom.range(of: "<pre id=\"measurements\">"),
        let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
      else { throw DaemonHarnessError("no inspector report: \(dom.suffix(400))") }
      let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect(report["lanes"] as? [String] == animated)
      #expect(report["selected"] as? String == photo)
      #expect(report["property"] as? String == "alpha")
      let plotted = try #require(report["atFrames"] as? [[Double]])
      #expect(plotted.count == recording.frames.count)
      var changes = 0
      for (point, frame) in zip(plotted, recording.frames) {
        let layer = (frame["layers"] as? [[String: Any]])?.first { $0["id"] as? String == photo }
        let alpha = layer.map { $0["alpha"] as? Double ?? 1 }
        #expect(point[0] == frame["progress"] as? Double)
        if let alpha {
          #expect(abs(point[1] - alpha) < 1e-3, "\(photo) at \(point[0]): \(point[1]) vs \(alpha)")
          if alpha > 0.001 && alpha < 0.999 { changes += 1 }
        }
      }
      #expect(changes >= 2, "\(photo): the alpha should move in several frames")
    }
  }

  @Test(
    "album-flip push with reduced motion: the dissolve's lane and its alpha curve through every frame",
    .enabled(if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
  func reducedAlbumPush() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let (path, recording, animated) = try Self.played(
      "album-flip-push", flags: ["--reduce-motion"], into: directory.file("reduced.ndjson"),
      daemon: daemon)
    #expect(recording.begin["motion"] as? String == "reduced")
    // The dissolve animates the photo screen alone (its background and its layers).
    #expect(animated.count > 1)
    #expect(animated.first == "album-flip.to-background")
    let photo = try #require(animated.last)
    let url = try ViewerHarness.url([
      ("recording", path), ("measure", "inspector"), ("select", photo), ("property", "alpha"),
    ])
    let dom = try HeadlessChromium.dumpDOM(url)
    guard let start = dom.range(of: "<pre id=\"measurements\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else { throw DaemonHarnessError("no inspector report: \(dom.suffix(400))") }
    let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(report["lanes"] as? [String] == animated)
    let plotted = try #require(report["atFrames"] as? [[Double]])
    #expect(plotted.count == recording.frames.count)
    for (point, frame) in zip(plotted, recording.frames) {
      let layer = (frame["layers"] as? [[String: Any]])?.first { $0["id"] as? String == photo }
      let alpha = try #require(layer.map { $0["alpha"] as? Double ?? 1 })
      #expect(abs(point[1] - alpha) < 1e-3, "\(photo) at \(point[0]): \(point[1]) vs \(alpha)")
    }
    #expect(abs(try #require(plotted.first?[1])) < 1e-6)
    #expect(abs(try #require(plotted.last?[1]) - 1) < 1e-6)
  }

  @Test(
    "morph push: a lane for both layers of each shared pair, whose alpha curve runs through every frame",
    .enabled(if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
  func morphPush() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let (path, recording, animated) = try Self.played(
      "morph-push", flags: [], into: directory.file("morph.ndjson"), daemon: daemon)
    // The three pairs (avatar, title, picture): both layers of each morph and get a lane.
    let pairs = [
      "row-2-avatar", "detail-avatar", "row-2-title", "detail-title", "row-2-picture",
      "detail-picture",
    ]
    #expect(Set(pairs).isSubset(of: animated), "\(animated)")
    for layer in ["row-2-avatar", "detail-picture"] {
      let url = try ViewerHarness.url([
        ("recording", path), ("measure", "inspector"), ("select", layer), ("property", "alpha"),
      ])
      let dom = try HeadlessChromium.dumpDOM(url)
      guard let start = dom.range(of: "<pre id=\"measurements\">"),
        let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
      else { throw DaemonHarnessError("no inspector report: \(dom.suffix(400))") }
      let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect(report["lanes"] as? [String] == animated)
      #expect(report["selected"] as? String == layer)
      #expect(report["property"] as? String == "alpha")
      let plotted = try #require(report["atFrames"] as? [[Double]])
      #expect(plotted.count == recording.frames.count)
      for (point, frame) in zip(plotted, recording.frames) {
        let shown = (frame["layers"] as? [[String: Any]])?.first { $0["id"] as? String == layer }
        guard let alpha = shown.map({ $0["alpha"] as? Double ?? 1 }) else { continue }
        #expect(abs(point[1] - alpha) < 1e-3, "\(layer) at \(point[0]): \(point[1]) vs \(alpha)")
      }
    }
  }
}
