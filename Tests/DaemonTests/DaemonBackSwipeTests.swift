import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionKit

@testable import IntegrationSupport

/// The back swipe on a real daemon: default-slide's `pop` begun with a finger at the left edge
/// follows the finger's x alone (and its `dismiss` the y of a finger dragging a sheet down),
/// and `release` finishes or cancels as ``ReleaseDecision`` decides.
@Suite struct DaemonBackSwipeTests {
  /// A config/scenes file as a context.
  static func scene(_ name: String) throws -> [String: JSONValue] {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../config/scenes/\(name).json").standardized
    var members = try JSONValue(parsing: Array(try Data(contentsOf: source))).objectValue ?? [:]
    members["animator"] = nil
    members["description"] = nil
    return members
  }

  private func nextFrame(_ client: DaemonClient) throws -> FrameEvent {
    while true {
      if case .frame(let frame) = try client.event() { return frame }
    }
  }

  private func alpha(_ id: String, in frame: FrameEvent) throws -> Double {
    let layer = try #require(frame.layers.first { $0["id"]?.stringValue == id }, "\(id)")
    return layer["alpha"]?.numberValue ?? 1
  }

  /// Begins an interactive `operation` of default-slide with the finger down at `grab`.
  private func begin(
    _ client: DaemonClient, scene: String, grab: Point
  ) throws -> String {
    let begun = try client.rawReply([
      "op": "begin", "animator": "default-slide", "context": .object(try Self.scene(scene)),
      "interactive": true, "touch": [.number(grab.x), .number(grab.y)],
    ])
    return try #require(begun.fields["session"]?.stringValue, "\(begun.fields)")
  }

  private func touch(_ client: DaemonClient, _ session: String, _ point: Point) throws -> Double {
    let reply = try client.rawReply([
      "op": "update", "session": .string(session), "touch": [.number(point.x), .number(point.y)],
    ])
    #expect(reply.fields["followed"] == "touch", "\(reply.fields)")
    return try #require(reply.fields["progress"]?.numberValue)
  }

  @Test func thePopFollowsTheFingerWithParallaxDimmingAndShadow() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let hello = try client.rawReply(["op": "hello"])
    #expect(hello.fields["features"]?.arrayValue?.contains("release") == true)
    let grab = Point(x: 4, y: 400)
    let session = try begin(client, scene: "default-slide-pop", grab: grab)
    _ = try client.subscribe(session: session, fps: 60)
    #expect(try nextFrame(client).progress == 0)

    var below: [Double] = []
    var dims: [Double] = []
    var shadows: [Double] = []
    for step in 1...8 {
      let finger = Point(x: grab.x + 40 * Double(step), y: grab.y + 3 * Double(step))
      let progress = try touch(client, session, finger)
      #expect(abs(progress - 40 * Double(step) / 390) < 1e-9)
      let frame = try nextFrame(client)
      let top = try DaemonGestureTests.layer("general-navbar", in: frame)
      let drawn = top.project(grab)
      #expect(
        abs(drawn.x - finger.x) <= 1 && abs(drawn.y - grab.y) < 1e-9,
        "step \(step): the grabbed point is drawn at \(drawn), the finger is at \(finger) (the screen moves sideways only)"
      )
      let shadow = try DaemonGestureTests.layer("default-slide.edge-shadow", in: frame)
      let shadowRight = shadow.project(Point(x: 0, y: 400)).x
      #expect(abs(shadowRight - top.project(Point(x: 0, y: 400)).x) < 1e-3, "on the top's edge")
      shadows.append(try alpha("default-slide.edge-shadow", in: frame))
      dims.append(try alpha("default-slide.dim", in: frame))
      let underneath = try DaemonGestureTests.layer("settings-navbar", in: frame)
      below.append(underneath.project(Point(x: 0, y: 0)).x)
    }
    #expect(below.allSatisfy { $0 > -0.3 * 390 - 1e-9 && $0 < 0 }, "\(below)")
    #expect(zip(below.dropFirst(), below).allSatisfy { $0 > $1 }, "parallax: \(below)")
    #expect(zip(dims.dropFirst(), dims).allSatisfy { $0 < $1 }, "dimming: \(dims)")
    #expect(zip(shadows.dropFirst(), shadows).allSatisfy { $0 < $1 }, "shadow: \(shadows)")

    let released = try client.rawReply([
      "op": "release", "session": .string(session), "touchVelocity": [200, 0],
    ])
    #expect(released.fields["state"] == "finishing", "past half-way: \(released.fields)")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    let last = try #require(frames.last)
    let top = try DaemonGestureTests.layer("general-navbar", in: last)
    #expect(abs(top.project(Point(x: 0, y: 0)).x - 390) < 1e-6, "off the right edge exactly")
  }

  /// Six releases: (drag in points, finger velocity in pt/s, what the rule decides).
  static let releases: [(drag: Double, velocity: Double, finishes: Bool)] = [
    (117, 0, false),  // 0.3, still: before half-way, cancels
    (273, 0, true),  // 0.7, still: past half-way, finishes
    (117, 800, true),  // 0.3, flung forward: finishes
    (273, -800, false),  // 0.7, flung back: cancels
    (117, 400, false),  // 0.3, forward but under the fling speed: cancels
    (273, -400, true),  // 0.7, back but under the fling speed: finishes
  ]

  @Test(arguments: 0..<6)
  func theReleaseDecidesByVelocityThenProgress(index: Int) throws {
    let (drag, velocity, finishes) = Self.releases[index]
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let grab = Point(x: 6, y: 300)
    let session = try begin(client, scene: "default-slide-pop", grab: grab)
    let progress = try touch(client, session, Point(x: grab.x + drag, y: grab.y))
    _ = try client.subscribe(session: session, fps: 60)
    let released = try client.rawReply([
      "op": "release", "session": .string(session), "touchVelocity": [.number(velocity), 0],
    ])
    #expect(
      released.fields["state"] == .string(finishes ? "finishing" : "cancelling"),
      "progress \(progress), velocity \(velocity): \(released.fields)")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished == finishes)
    #expect(frames.last?.progress == (finishes ? 1 : 0))
  }

  @Test func theSheetFollowsAFingerDraggingItDown() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let grab = Point(x: 200, y: 300)
    let session = try begin(client, scene: "default-slide-dismiss", grab: grab)
    _ = try client.subscribe(session: session, fps: 60)
    _ = try nextFrame(client)
    for step in 1...6 {
      let finger = Point(x: grab.x + 5 * Double(step), y: grab.y + 60 * Double(step))
      let progress = try touch(client, session, finger)
      #expect(abs(progress - 60 * Double(step) / 844) < 1e-9)
      let sheet = try DaemonGestureTests.layer("compose-navbar", in: try nextFrame(client))
      let drawn = sheet.project(grab)
      #expect(
        abs(drawn.x - grab.x) < 1e-9 && abs(drawn.y - finger.y) <= 1,
        "step \(step): the grabbed point is drawn at \(drawn), the finger is at \(finger) (the sheet moves down only)"
      )
    }
    let released = try client.rawReply([
      "op": "release", "session": .string(session), "touchVelocity": [0, 900],
    ])
    #expect(released.fields["state"] == "finishing", "flung down: \(released.fields)")
    #expect(try client.framesUntilComplete(session: session).finished)
  }

  @Test func aReleaseWithoutAFingerIsRefusedAndChangesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(
      context: DaemonScenes.plainPush(), animator: "default-slide", interactive: true
    ).session
    _ = try client.control(session: session, action: .update(progress: 0.6))
    let refused = try client.rawReply([
      "op": "release", "session": .string(session), "touchVelocity": [0, 0],
    ])
    #expect(refused.fields["error"]?["code"] == "bad_request")
    #expect(refused.fields["error"]?["message"]?.stringValue?.contains("finger") == true)
    let sessions = try client.rawReply(["op": "sessions"]).fields["sessions"]?.arrayValue
    #expect(sessions?.first?["state"] == "interactive")
    #expect(sessions?.first?["progress"] == .number(0.6))
    let bad = try client.rawReply([
      "op": "release", "session": .string(session), "touchVelocity": [1e9, 0],
    ])
    #expect(bad.fields["error"]?["message"]?.stringValue?.contains("touchVelocity") == true)
  }
}
