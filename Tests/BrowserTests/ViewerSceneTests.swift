import Foundation
import Testing

@testable import IntegrationSupport

/// Every example scene, recorded by the real daemon with the real plugins and drawn by the
/// viewer page in headless Chromium: what the first and last frames draw, and no jump near
/// either end.
@Suite(
  "viewer: every scene in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerSceneTests {
  /// A pixel differs when one of its channels differs by more than this (of 255).
  static let channelTolerance = 2
  /// At most this many pixels of a 390 × 844 view (0.01 %) may differ by more: room for the
  /// anti-aliasing of an edge drawn through a 3D transform. (Measured: every scene whose ends
  /// are right draws them identically, 0 pixels differ at all.)
  static let differingPixelLimit = 33

  /// Frame-to-frame pixel changes below this changed area (in pixels: the sum over pixels of
  /// their largest channel change / 255) are too small to call a jump.
  static let pixelFloor = 40.0

  /// Every scene but Material's shared axis and fade through. Their ends keep the other screen
  /// at alpha 0 with a transform, over text: Chromium then composites that invisible layer and,
  /// in some runs only, anti-aliases the visible text over it differently (150-180 pixels of
  /// glyph edges) from the same screen drawn alone, which this pixel-exact check cannot tell
  /// from a wrong end. MaterialAnimatorTests checks their ends and their no-jump rule on the
  /// drawn geometry (CoarseRaster) instead, and `check-plugin` on every example scene.
  static let scenes = TransitionctlProducts.sceneNames.filter {
    !$0.hasPrefix("material-shared-axis-") && !$0.hasPrefix("material-fade-through-")
  }

  @Test(
    "first frame = from screen alone; last frame = to screen alone; a cancelled session ends on the from screen",
    arguments: scenes)
  func endsDrawTheScreens(name: String) throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try ViewerRecorder.record(name, daemon: daemon, into: directory)
    let scene = try TransitionctlScene(named: name)
    let container = try Self.container(scene)
    let views = try ViewerHarness.sheet(
      recording: recording, scene: scene.url.path,
      views: ["from", "f:0@finished", "f:-1@cancelled", "f:-1@finished", "to"],
      container: container)
    let (from, first, cancelled, last, to) = (views[0], views[1], views[2], views[3], views[4])
    for (what, drawn, expected) in [
      ("first frame vs from screen", first, from),
      ("cancelled end vs from screen", cancelled, from),
      ("last frame vs to screen", last, to),
    ] {
      let difference = drawn.difference(from: expected, threshold: Self.channelTolerance)
      #expect(
        difference.pixels <= Self.differingPixelLimit,
        "\(name): \(what): \(difference.pixels) pixels differ by more than \(Self.channelTolerance) (largest \(difference.largest))"
      )
    }
  }

  @Test(
    "no jump near either end of a finished session, in geometry or in pixels", arguments: scenes)
  func noJumpNearTheEnds(name: String) throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try ViewerRecorder.record(
      name, daemon: daemon, into: directory, cancelled: false)
    let scene = try TransitionctlScene(named: name)
    let container = try Self.container(scene)
    let measured = try ViewerHarness.measure(
      recording: recording, container: (container.width, container.height))
    let geometry = ViewerFrameChanges(measured).geometry
    let moved = ViewerFrameChanges.jumps(in: geometry, floor: 0.5)
    #expect(moved.isEmpty, "\(name): geometry jumps after frames \(moved): \(geometry)")

    // The frames whose changes the first and last tenth look at, and their neighbours.
    let count = measured.frames.count
    let tenth = max(1, (count - 1 + 9) / 10)
    let head = Array(0...min(tenth + 1, count - 1))
    let tail = Array(max(0, count - tenth - 2)...(count - 1))
    let views = try ViewerHarness.sheet(
      recording: recording, scene: nil, views: (head + tail).map { "f:\($0)" },
      container: container)
    // The head's changes 0..<tenth are checked (the next one is a neighbour); likewise the
    // tail's last `tenth`.
    let ends = [
      (head, Array(views[0..<head.count]), Array(0..<tenth)),
      (tail, Array(views[head.count...]), Array((tail.count - 1 - tenth)..<(tail.count - 1))),
    ]
    for (range, images, checked) in ends {
      let changes = zip(images, images.dropFirst()).map { $0.changedArea(to: $1) }
      let jumps = ViewerFrameChanges.jumps(
        in: changes, at: checked.filter { $0 >= 0 }, floor: Self.pixelFloor)
      #expect(
        jumps.isEmpty,
        "\(name): pixel jumps after frames \(jumps.map { range[$0] }) of \(count): changed areas \(changes) from frame \(range[0])"
      )
    }
  }

  static func container(_ scene: TransitionctlScene) throws -> (width: Int, height: Int) {
    guard let size = scene.context["container"]?.arrayValue?.compactMap(\.numberValue),
      size.count == 2, size.allSatisfy({ $0 == $0.rounded() })
    else {
      throw DaemonHarnessError("\(scene.url.path) has no integer container")
    }
    return (Int(size[0]), Int(size[1]))
  }
}
