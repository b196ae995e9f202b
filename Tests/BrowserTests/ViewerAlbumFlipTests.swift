import Foundation
import Testing
import TransitionKit

@testable import IntegrationSupport

/// album-flip drawn by the viewer in headless Chromium, at 240 frames a second: the cover turns
/// about its left edge, is edge-on in the middle of its turn, and the photos end on their own
/// frames; and the browser's drawing of a 3D layer matches the Core Animation projection.
@Suite(
  "viewer: album-flip in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerAlbumFlipTests {
  /// The flipping stand-in for the tapped cover.
  static let cover = "album-flip.cover"
  /// Positions agree to this many CSS pixels.
  static let positionTolerance = 0.5

  /// A 240 fps recording of `name` and what the browser drew for each frame.
  static func measured(_ name: String) throws -> (
    recording: String, measurements: ViewerMeasurements, scene: TransitionctlScene
  ) {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    let recording = try ViewerRecorder.record(
      name, daemon: daemon, into: directory, fps: 240, cancelled: false)
    let scene = try TransitionctlScene(named: name)
    let copy = try DaemonHarness.makeTemporaryDirectory() + "/\(name).ndjson"
    try FileManager.default.copyItem(atPath: recording, toPath: copy)
    directory.remove()
    return (copy, try ViewerHarness.measure(recording: copy, container: (390, 844)), scene)
  }

  /// The frame [x, y, w, h] of the layer `id` of the scene's screens.
  static func sceneFrame(_ scene: TransitionctlScene, _ id: String) throws -> [Double] {
    for side in ["from", "to"] {
      let layers = scene.context[side]?["layers"]?.arrayValue ?? []
      if let layer = layers.first(where: { $0["id"]?.stringValue == id }),
        let frame = layer["frame"]?.arrayValue?.compactMap(\.numberValue)
      {
        return frame
      }
    }
    throw DaemonHarnessError("no layer \(id) in \(scene.url.path)")
  }

  @Test(
    "the cover turns about its left edge and is edge-on in the middle of its turn",
    arguments: ["album-flip-push", "album-flip-pop"])
  func coverTurnsAboutItsLeftEdge(name: String) throws {
    let (recording, measured, scene) = try Self.measured(name)
    defer { try? FileManager.default.removeItem(atPath: recording) }
    let selected = try #require(scene.context["selected"]?.stringValue)
    let frame = try Self.sceneFrame(scene, selected)
    let (left, top, width, height) = (frame[0], frame[1], frame[2], frame[3])

    // The frames that draw the cover, and its signed drawn width (right edge minus left edge:
    // negative once it has turned past edge-on).
    let drawn = measured.frames.compactMap {
      frame -> (index: Int, layer: ViewerMeasurements.Layer)? in
      guard let layer = frame.layer(Self.cover), layer.drawnOpacity > 0 else { return nil }
      return (frame.seq, layer)
    }
    try #require(drawn.count > 10, "\(name): the cover is drawn in \(drawn.count) frames")
    let hingeMoved = drawn.filter { _, layer in
      let (topLeft, bottomLeft) = (layer.quad[0], layer.quad[3])
      return abs(topLeft[0] - left) > Self.positionTolerance
        || abs(topLeft[1] - top) > Self.positionTolerance
        || abs(bottomLeft[0] - left) > Self.positionTolerance
        || abs(bottomLeft[1] - (top + height)) > Self.positionTolerance
    }
    #expect(
      hingeMoved.isEmpty,
      "\(name): the left edge leaves [\(left), \(top)]–[\(left), \(top + height)] in frames \(hingeMoved.map(\.index)): \(hingeMoved.first.map { [$0.layer.quad[0], $0.layer.quad[3]] } ?? [])"
    )

    let signed = measured.frames.map { frame -> Double? in
      frame.layer(Self.cover).map { $0.quad[1][0] - $0.quad[0][0] }
    }
    // The turn: from the last frame at rest (flat, either way) to the first frame at rest on
    // the other side.
    func flat(_ value: Double?, _ sign: Double) -> Bool {
      guard let value else { return false }
      return abs(value - sign * width) <= Self.positionTolerance
    }
    let opening = name.hasSuffix("push")
    let startSign = opening ? 1.0 : -1.0
    let start = try #require(
      signed.indices.last {
        flat(signed[$0], startSign) && signed[..<$0].allSatisfy { $0 == nil || flat($0, startSign) }
      },
      "\(name): the cover never lies flat at the start")
    let end = try #require(
      signed.indices.first { $0 > start && flat(signed[$0], -startSign) },
      "\(name): the cover never lies flat at the end")
    // Edge-on: the frame of least drawn width, where the sign changes.
    let turning = (start...end).compactMap { index in signed[index].map { (index, $0) } }
    let edgeOn = try #require(turning.min { abs($0.1) < abs($1.1) })
    let crosses = zip(turning, turning.dropFirst()).contains {
      $0.1 * startSign > 0 && $1.1 * startSign <= 0
    }
    #expect(crosses, "\(name): the cover's drawn width never changes sign: \(turning.map(\.1))")
    // At 240 fps the cover turns at most about 2.5° a frame: within 1.25° of edge-on its
    // drawn width is under 171 × sin(1.25°) ≈ 3.7 px.
    #expect(abs(edgeOn.1) <= 4, "\(name): narrowest drawn width \(edgeOn.1) at frame \(edgeOn.0)")
    let middle = Double(start + end) / 2
    let span = Double(end - start)
    // The overall curve shapes the turn, so edge-on is near, not exactly at, its middle frame.
    #expect(
      abs(Double(edgeOn.0) - middle) <= 0.15 * span,
      "\(name): edge-on at frame \(edgeOn.0), the turn spans frames \(start)...\(end)")
  }

  @Test("album-flip push: the photos end on their own frames, drawn opaque")
  func photosEndOnTheirFrames() throws {
    let (recording, measured, scene) = try Self.measured("album-flip-push")
    defer { try? FileManager.default.removeItem(atPath: recording) }
    let last = try #require(measured.frames.last)
    let photos = (scene.context["to"]?["layers"]?.arrayValue ?? [])
      .compactMap { $0["id"]?.stringValue }.filter {
        $0.hasPrefix("photo-") && !$0.contains("grid")
      }
    try #require(photos.count == 15)
    for id in photos {
      let frame = try Self.sceneFrame(scene, id)
      let layer = try #require(last.layer(id), "\(id) is not drawn in the last frame")
      let expected = [
        [frame[0], frame[1]], [frame[0] + frame[2], frame[1]],
        [frame[0] + frame[2], frame[1] + frame[3]], [frame[0], frame[1] + frame[3]],
      ]
      let off =
        zip(layer.quad, expected).map { max(abs($0[0] - $1[0]), abs($0[1] - $1[1])) }.max()
        ?? .infinity
      #expect(off <= 0.01, "\(id) ends \(off) px off its frame: \(layer.quad)")
      #expect(layer.drawnOpacity == 1, "\(id) ends with opacity \(layer.drawnOpacity)")
    }
  }

  @Test("the browser draws a turning layer where the Core Animation projection puts it")
  func browserMatchesTheCoreAnimationProjection() throws {
    let (recording, measured, _) = try Self.measured("album-flip-push")
    defer { try? FileManager.default.removeItem(atPath: recording) }
    // The recording's frame lines (it also holds the begin and complete events).
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
      .filter { $0.hasPrefix(#"{"event":"frame""#) }
    var compared = 0
    var worst = 0.0
    for (line, drawnFrame) in zip(lines, measured.frames) {
      let event = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let layers = event["layers"] as? [[String: Any]] ?? []
      guard let layer = layers.first(where: { $0["id"] as? String == Self.cover }),
        let numbers = layer["transform"] as? [Double], let drawn = drawnFrame.layer(Self.cover)
      else { continue }
      let transform = try Transform3D(elements: numbers)
      let frame = try #require(layer["frame"] as? [Double])
      let anchor = layer["anchor"] as? [Double] ?? [0.5, 0.5]
      let anchorX = frame[0] + anchor[0] * frame[2]
      let anchorY = frame[1] + anchor[1] * frame[3]
      let corners = [
        (frame[0], frame[1]), (frame[0] + frame[2], frame[1]),
        (frame[0] + frame[2], frame[1] + frame[3]), (frame[0], frame[1] + frame[3]),
      ]
      for (corner, browser) in zip(corners, drawn.quad) {
        // Row vectors about the anchor, with the perspective divide.
        let moved = transform.apply(x: corner.0 - anchorX, y: corner.1 - anchorY)
        let x = moved.x + anchorX
        let y = moved.y + anchorY
        worst = max(worst, abs(x - browser[0]), abs(y - browser[1]))
      }
      compared += 1
    }
    #expect(compared > 50, "compared \(compared) frames")
    // The page rounds what it reports to 0.001 px.
    #expect(worst <= 0.01, "the browser is up to \(worst) px off the projection")
  }
}
