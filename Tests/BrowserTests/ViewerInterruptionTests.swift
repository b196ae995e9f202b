import CTransitionGLES
import Foundation
import Testing
import TransitionJSON
import TransitionRender
import TransitionViewer

@testable import IntegrationSupport

/// Interruption and reduced motion in the viewer page in real headless Chromium: the timeline
/// inspector's place for a handover (``InterruptedRecording``), the native renderer against
/// Chromium on the handover's frames and on a reduced-motion dissolve, within
/// NativeRendererParityTests's limits, and the handover's first frames as the viewer draws
/// them against a golden drawing (Tests/Fixtures/viewer-golden/handover-push-pop.json).
///
/// `TRANSITIOND_RECORD_GOLDEN=1 swift test --filter ViewerInterruptionTests` rewrites the
/// golden drawing: only after a change to the handover that is meant;
/// `TRANSITIOND_KEEP_SCREENSHOTS=DIR` keeps the inspector's screenshots there, to look at.
@Suite(
  "viewer: interruption and reduced motion", .serialized,
  .enabled(if: HeadlessChromium.missingReason == nil, "\(HeadlessChromium.missingReason ?? "")"))
struct ViewerInterruptionTests {
  /// The handover's frames the golden drawing holds (at 30 fps: its first third of a second).
  static let goldenFrames = [0, 1, 2, 4, 6, 9]
  static let quadTolerance = 0.05
  static let opacityTolerance = 0.001

  static var goldenPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../Fixtures/viewer-golden/handover-push-pop.json").standardized.path
  }

  /// The inspector's report (`measure=inspector`) for `session` of the recording at `path`.
  static func inspectorReport(_ path: String, session: String) throws -> [String: Any] {
    let url = try ViewerHarness.url([
      ("recording", path), ("session", session), ("measure", "inspector"),
    ])
    let dom = try HeadlessChromium.dumpDOM(url)
    guard let start = dom.range(of: "<pre id=\"measurements\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else { throw DaemonHarnessError("no inspector report: \(dom.suffix(400))") }
    let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("an interrupted push→pop: the pop's lanes show the handover, the push's end at it")
  func inspectorShowsTheHandover() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try InterruptedRecording(daemon: daemon, directory: directory)
    let events = try recording.events()
    let popBegin = try #require(
      events.first {
        $0["event"] as? String == "begin" && $0["session"] as? String == InterruptedRecording.pop
      })
    #expect(popBegin["interrupts"] as? String == InterruptedRecording.push)
    let seconds = try #require(popBegin["handover"] as? Double)
    // album-flip sets no handover and has no spring: the default blend.
    #expect(abs(seconds - 0.3) < 1e-9)
    let duration = try #require(popBegin["duration"] as? Double)

    let pop = try Self.inspectorReport(recording.path, session: InterruptedRecording.pop)
    let lanes = try #require(pop["lanes"] as? [String])
    #expect(lanes.count > 10)
    let handover = try #require(pop["handover"] as? [String: Any], "\(pop)")
    #expect(handover["from"] as? String == InterruptedRecording.push)
    #expect(handover["seconds"] as? Double == seconds)
    #expect(abs((handover["until"] as? Double ?? 0) - seconds / duration) < 1e-9)
    #expect(pop["handoverBands"] as? Int == lanes.count)
    #expect(pop["interruption"] is NSNull)

    let push = try Self.inspectorReport(recording.path, session: InterruptedRecording.push)
    let interruption = try #require(push["interruption"] as? [String: Any], "\(push)")
    #expect(interruption["by"] as? String == InterruptedRecording.pop)
    let at = try #require(interruption["at"] as? Double)
    #expect(abs(at - InterruptedRecording.instant) < 1e-9)
    #expect(push["handoverCuts"] as? Int == (push["lanes"] as? [String])?.count)
    // Every keyframe bar ends at the handover (a bar is at least a pixel wide).
    let barEnds = try #require(push["barEnds"] as? Double)
    #expect(barEnds <= at + 1.0 / 300 + 1e-9, "\(barEnds)")
    #expect(push["handover"] is NSNull)

    // Drawn, to look at: the pop's inspector beside its first frame.
    for session in [InterruptedRecording.pop, InterruptedRecording.push] {
      let url = try ViewerHarness.url([
        ("recording", recording.path), ("session", session), ("frame", "0"),
      ])
      let shot = directory.file("inspector-\(session).png")
      try HeadlessChromium.screenshot(url, width: 1000, height: 900, to: shot)
      #expect(FileManager.default.fileExists(atPath: shot))
      if let keep = ProcessInfo.processInfo.environment["TRANSITIOND_KEEP_SCREENSHOTS"] {
        _ = try? FileManager.default.removeItem(atPath: keep + "/inspector-\(session).png")
        try FileManager.default.copyItem(atPath: shot, toPath: keep + "/inspector-\(session).png")
      }
    }
  }

  @Test("the handover's frames: the native renderer matches Chromium")
  func handoverDrawsAlike() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try InterruptedRecording(daemon: daemon, directory: directory, fps: 20)
    let browser = try HeadlessBrowser(
      executable: try #require(HeadlessChromium.executable), width: 390, height: 844)
    defer { browser.close() }
    // The push's last frame (the handover instant), the pop's first frames and its end.
    _ = try NativeRendererParityTests.compare(
      recording.path, session: InterruptedRecording.push, indices: { [$0 - 1] },
      name: "album-flip push held at 40 %", browser: browser)
    _ = try NativeRendererParityTests.compare(
      recording.path, session: InterruptedRecording.pop,
      indices: { count in [0, 1, 2, 3, 5, count / 2, count - 1] },
      name: "album-flip pop interrupting it", browser: browser)
  }

  @Test("reduced motion: the native renderer matches Chromium on the dissolve")
  func reducedMotionDrawsAlike() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let browser = try HeadlessBrowser(
      executable: try #require(HeadlessChromium.executable), width: 390, height: 844)
    defer { browser.close() }
    for name in ["album-flip-push", "morph-push"] {
      let path = directory.file("\(name)-reduced.ndjson")
      let scene = TransitionctlProducts.scenes.appendingPathComponent("\(name).json").path
      let played = try TransitionctlRun.run(
        ["play", scene, "--virtual", "--fps", "20", "--reduce-motion", "--out", path],
        socket: daemon.socketPath)
      try #require(played.status == 0, "\(played.stderr)")
      _ = try NativeRendererParityTests.compare(
        path, session: nil, indices: NativeRendererParityTests.instants,
        name: "\(name) reduced", browser: browser)
    }
  }

  /// One drawn layer of the golden drawing.
  struct GoldenLayer: Codable {
    var id: String
    var quad: [[Double]]
    var opacity: Double
  }

  @Test("the handover's first frames as the viewer draws them match the golden drawing")
  func handoverMatchesTheGoldenDrawing() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try InterruptedRecording(daemon: daemon, directory: directory)
    let measured = try ViewerHarness.measure(
      recording: recording.path, session: InterruptedRecording.pop)
    var drawn: [String: [GoldenLayer]] = [:]
    for index in Self.goldenFrames {
      let frame = try #require(measured.frames.first { $0.seq == index })
      drawn["\(index)"] = frame.layers.filter { $0.visible && $0.opacity > 0 }.map {
        GoldenLayer(id: $0.id, quad: $0.quad, opacity: $0.opacity)
      }
    }
    if ProcessInfo.processInfo.environment["TRANSITIOND_RECORD_GOLDEN"] == "1" {
      // A layer a line.
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      var text = "{\n"
      for (position, index) in Self.goldenFrames.enumerated() {
        let layers = try (drawn["\(index)"] ?? []).map {
          "    " + String(decoding: try encoder.encode($0), as: UTF8.self)
        }
        text += "  \"\(index)\": [\n" + layers.joined(separator: ",\n") + "\n  ]"
        text += position == Self.goldenFrames.count - 1 ? "\n" : ",\n"
      }
      text += "}\n"
      try FileManager.default.createDirectory(
        atPath: (Self.goldenPath as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      try text.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
      return
    }
    let golden = try JSONDecoder().decode(
      [String: [GoldenLayer]].self, from: Data(contentsOf: URL(fileURLWithPath: Self.goldenPath)))
    #expect(Set(golden.keys) == Set(drawn.keys))
    for (frame, layers) in golden {
      let shown = try #require(drawn[frame])
      #expect(shown.map(\.id) == layers.map(\.id), "frame \(frame): the layers drawn, in order")
      for (a, b) in zip(layers, shown) {
        #expect(abs(a.opacity - b.opacity) <= Self.opacityTolerance, "frame \(frame) \(a.id)")
        for (p, q) in zip(a.quad, b.quad) {
          #expect(
            abs(p[0] - q[0]) <= Self.quadTolerance && abs(p[1] - q[1]) <= Self.quadTolerance,
            "frame \(frame) \(a.id): \(p) drawn at \(q)")
        }
      }
    }
  }
}
