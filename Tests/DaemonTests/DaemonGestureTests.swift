import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionKit

@testable import IntegrationSupport

/// A finger drives a real daemon: zoom-present's dismiss (the repository's file, served from a
/// watched directory as `drag-zoom`) begun with a touch on the picture, dragged, released;
/// the frames draw the grabbed point under the finger and end exactly.
@Suite(.serialized) struct DaemonGestureTests {
  static let name = "drag-zoom"

  /// A daemon serving config/animators/zoom-present.json under another name (so that no
  /// library of the same name takes precedence).
  static func start() throws -> DaemonProcess {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let animators = directory + "/animators"
    try FileManager.default.createDirectory(
      atPath: animators, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o755])
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../config/animators/zoom-present.json").standardized
    let text = try String(contentsOf: source, encoding: .utf8)
      .replacingOccurrences(of: "zoom-present.origin", with: "\(name).origin")
      .replacingOccurrences(of: "\"../../docs/animator.schema.json\"", with: "\"\"")
    let path = animators + "/\(name).json"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o644)
    return try DaemonProcess(arguments: ["--animator-path", animators], directory: directory)
  }

  /// The matched dismiss scene of config/scenes.
  static func scene() throws -> [String: JSONValue] {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../config/scenes/zoom-present-matched-dismiss.json")
      .standardized
    var members = try JSONValue(parsing: Array(try Data(contentsOf: source))).objectValue ?? [:]
    members["animator"] = nil
    members["description"] = nil
    return members
  }

  /// A layer of a frame event as the engine's state.
  static func state(_ layer: [String: JSONValue]) throws -> LayerState {
    let field = JSONField(.object(layer), path: "layer")
    var state = LayerState(
      id: try field.required("id").string(), frame: try field.required("frame").rect())
    if let anchor = try field.optional("anchor") { state.anchor = try anchor.point() }
    if let transform = try field.optional("transform") {
      state.transform = try transform.transform()
    }
    return state
  }

  static func layer(_ id: String, in frame: FrameEvent) throws -> LayerState {
    try state(try #require(frame.layers.first { $0["id"]?.stringValue == id }))
  }

  private func nextFrame(_ client: DaemonClient) throws -> FrameEvent {
    while true {
      if case .frame(let frame) = try client.event() { return frame }
    }
  }

  static let grab = Point(x: 220, y: 420)
  static let picture = Rect(x: 0, y: 276, width: 390, height: 292)

  @Test(arguments: [true, false])
  func aDragHoldsThePictureUnderTheFingerAndTheReleaseEndsExactly(finish: Bool) throws {
    let daemon = try Self.start()
    let client = try daemon.client()
    let hello = try client.rawReply(["op": "hello"])
    #expect(hello.fields["features"]?.arrayValue?.contains("touch") == true)
    let begun = try client.rawReply([
      "op": "begin", "animator": .string(Self.name), "context": .object(try Self.scene()),
      "interactive": true, "touch": [.number(Self.grab.x), .number(Self.grab.y)],
    ])
    let session = try #require(begun.fields["session"]?.stringValue, "\(begun.fields)")
    _ = try client.subscribe(session: session, fps: 60)
    let first = try nextFrame(client)
    #expect(first.progress == 0)

    var widths: [Double] = []
    for step in 1...8 {
      let touch = Point(x: Self.grab.x + 12 * Double(step), y: Self.grab.y + 35 * Double(step))
      let reply = try client.rawReply([
        "op": "update", "session": .string(session),
        "touch": [.number(touch.x), .number(touch.y)],
      ])
      #expect(reply.fields["followed"] == "touch")
      let progress = try #require(reply.fields["progress"]?.numberValue)
      #expect(abs(progress - 35 * Double(step) / 844) < 1e-9)
      let frame = try nextFrame(client)
      #expect(abs(frame.progress - progress) < 1e-6, "frames carry 7 decimals")
      let picture = try Self.layer("detail-photo", in: frame)
      let drawn = picture.project(Self.grab)
      #expect(
        abs(drawn.x - touch.x) <= 1 && abs(drawn.y - touch.y) <= 1,
        "step \(step): the grabbed point is drawn at \(drawn), the finger is at \(touch)")
      widths.append(
        picture.project(Point(x: 390, y: 276)).x - picture.project(Point(x: 0, y: 276)).x)
    }
    #expect(zip(widths.dropFirst(), widths).allSatisfy { $0 < $1 }, "\(widths)")
    let listed = try client.rawReply(["op": "sessions"]).fields["sessions"]?.arrayValue?.first
    #expect(listed?["touch"] == [.number(Self.grab.x + 96), .number(Self.grab.y + 280)])

    let release: [String: JSONValue] = [
      "op": .string(finish ? "finish" : "cancel"), "session": .string(session),
      "touchVelocity": [.number(60), .number(finish ? 900 : -600)],
    ]
    let released = try client.rawReply(release)
    #expect(released.fields["state"] == .string(finish ? "finishing" : "cancelling"))
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished == finish)
    let last = try #require(frames.last)
    #expect(last.progress == (finish ? 1 : 0))
    let picture = try Self.layer("detail-photo", in: last)
    if finish {
      // Fitted in its cell (131, 225, 128, 128): no offset left.
      let centre = picture.project(Point(x: Self.picture.midX, y: Self.picture.midY))
      #expect(abs(centre.x - 195) < 1e-6 && abs(centre.y - 289) < 1e-6, "\(centre)")
    } else {
      #expect(picture.transform == .identity, "back on the full screen exactly")
      #expect(last.layers.map { $0 as NSDictionary } == first.layers.map { $0 as NSDictionary })
    }
    // Nothing jumps at the release: the first frames move on smoothly from the finger.
    if let next = frames.first {
      let drawn = try Self.layer("detail-photo", in: next).project(Self.grab)
      let finger = Point(x: Self.grab.x + 96, y: Self.grab.y + 280)
      let distance =
        ((drawn.x - finger.x) * (drawn.x - finger.x) + (drawn.y - finger.y) * (drawn.y - finger.y))
        .squareRoot()
      #expect(
        distance < 60, "the first frame after the release is \(distance) points from the finger")
    }
  }

  @Test func badTouchesAreRefusedNamingTheField() throws {
    let daemon = try Self.start()
    let client = try daemon.client()
    let begun = try client.rawReply([
      "op": "begin", "animator": .string(Self.name), "context": .object(try Self.scene()),
      "interactive": true,
    ])
    let session = try #require(begun.fields["session"]?.stringValue)
    for touch: JSONValue in [[1], [1, "a"], [1e7, 0], "here", [1, 2, 3]] {
      let reply = try client.rawReply(["op": "update", "session": .string(session), "touch": touch])
      #expect(reply.fields["error"]?["code"] == "bad_request")
      #expect(reply.fields["error"]?["message"]?.stringValue?.contains("touch") == true)
    }
    let velocity = try client.rawReply([
      "op": "finish", "session": .string(session), "touchVelocity": [1e9, 0],
    ])
    #expect(velocity.fields["error"]?["message"]?.stringValue?.contains("touchVelocity") == true)
    let sessions = try client.rawReply(["op": "sessions"]).fields["sessions"]?.arrayValue
    #expect(sessions?.first?["state"] == "interactive")
    #expect(sessions?.first?["progress"] == .number(0))
    // A progress-driven animator needs progress.
    let plain = try client.begin(
      context: DaemonScenes.plainPush(), animator: "default-slide", interactive: true
    ).session
    let refused = try client.rawReply([
      "op": "update", "session": .string(plain), "touch": [10, 10],
    ])
    #expect(refused.fields["error"]?["code"] == "bad_request")
    #expect(refused.fields["error"]?["message"]?.stringValue?.contains("needs progress") == true)
    let both = try client.rawReply([
      "op": "update", "session": .string(plain), "touch": [10, 10], "progress": 0.25,
    ])
    #expect(both.fields["followed"] == "progress")
  }
}
