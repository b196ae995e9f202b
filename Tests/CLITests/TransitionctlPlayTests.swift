import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionWire

@testable import IntegrationSupport

/// `transitionctl play` against the real daemon: every example scene, the virtual clock's
/// frame sequence, `--out`, and the error paths.
@Suite("transitionctl play", .serialized)
struct TransitionctlPlayTests {
  @Test("config/scenes holds exactly the scenes of every animator and operation")
  func scenesCoverEveryAnimatorAndOperation() throws {
    let names = try TransitionctlProducts.sceneFiles().map {
      $0.deletingPathExtension().lastPathComponent
    }
    #expect(names.sorted() == TransitionctlProducts.sceneNames.sorted())
    for name in TransitionctlProducts.sceneNames {
      let scene = try TransitionctlScene(named: name)
      // The file name is <animator>-<operation>, or <animator>-<form>-<operation>.
      #expect(name.hasPrefix("\(scene.animator ?? "?")-"), "\(name)")
      #expect(name.hasSuffix("-\(scene.operation ?? "?")"), "\(name)")
      #expect(scene.context["container"] == [390, 844])
      let layers = ["from", "to"].flatMap { screen in
        scene.context[screen]?["layers"]?.arrayValue ?? []
      }
      let ids = layers.compactMap { $0["id"]?.stringValue }
      #expect(ids.count == layers.count)
      #expect(Set(ids).count == ids.count, "\(name): layer ids must be unique")
      if let selected = scene.context["selected"]?.stringValue {
        #expect(ids.contains(selected), "\(name): selected \(selected) is no layer")
      }
      if let match = scene.context["match"]?.stringValue {
        #expect(ids.contains(match), "\(name): match \(match) is no layer")
      }
    }
  }

  @Test(
    "every scene is served by its own animator without fallback",
    arguments: TransitionctlProducts.sceneNames)
  func sceneServedByItsAnimator(name: String) throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = try TransitionctlScene(named: name)
    let client = try daemon.client()
    defer { client.close() }
    let started = try client.begin(context: scene.context, animator: scene.animator)
    #expect(started.animator == scene.animator)
    #expect(started.fallback == false)

    let result = try TransitionctlRun.run(
      ["play", scene.url.path, "--virtual", "--fps", "20"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.begin["animator"] as? String == scene.animator)
    #expect(recording.begin["operation"] as? String == scene.operation)
    #expect(recording.begin["container"] as? [Double] == [390, 844])
    #expect(recording.complete["finished"] as? Bool == true)
    let frames = recording.frames
    #expect(frames.count >= 2)
    #expect((frames.last?["progress"] as? Double) == 1)
  }

  @Test("play --interrupts ends the running session with interruptedBy and starts from it")
  func playInterrupts() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let push = try TransitionctlScene(named: "album-flip-push")
    let pop = try TransitionctlScene(named: "album-flip-pop")
    let client = try daemon.client()
    defer { client.close() }
    // A push long enough to be running when the pop comes.
    let started = try client.begin(
      context: push.context, animator: "album-flip", duration: 600, session: "long-push")
    _ = try client.subscribe(session: started.session)
    let result = try TransitionctlRun.run(
      ["play", pop.url.path, "--interrupts", "long-push", "--virtual", "--fps", "20"],
      socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.complete["finished"] as? Bool == true)
    var complete: CompleteEvent?
    while complete == nil {
      if case .complete(let event) = try client.nextEvent(timeout: .seconds(20)) {
        complete = event
      }
    }
    #expect(complete?.finished == false)
    #expect(complete?.interruptedBy == recording.begin["session"] as? String)
    let refused = try TransitionctlRun.run(
      ["play", pop.url.path, "--interrupts", "long-push"], socket: daemon.socketPath)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("unknown_session"), "\(refused.stderr)")
  }

  @Test("play --virtual streams every frame at t = k/fps, seq from 0, ending at progress 1")
  func virtualClockFrames() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let fps = 30.0
    let duration = 0.5
    let scene = TransitionctlProducts.scenes.appendingPathComponent("album-flip-push.json").path
    let result = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "30", "--duration", "0.5"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.begin["clock"] as? String == "virtual")
    #expect(recording.begin["fps"] as? Double == fps)
    #expect(recording.begin["duration"] as? Double == duration)
    let frames = recording.frames
    // 0.5 s at 30 fps: t = 0, 1/30, …, 15/30.
    #expect(frames.count == Int(duration * fps) + 1)
    let sessions = Set(frames.compactMap { $0["session"] as? String })
    #expect(sessions.count == 1)
    for (index, frame) in frames.enumerated() {
      #expect(frame["event"] as? String == "frame")
      #expect(frame["seq"] as? Int == index)
      let t = try #require(frame["t"] as? Double)
      // Frame numbers carry 7 significant digits (docs/protocol.md, "Numbers in frames").
      #expect(abs(t - Double(index) / fps) < 1e-6, "frame \(index): t \(t)")
      #expect((frame["layers"] as? [Any])?.isEmpty == false)
    }
    #expect(frames.first?["progress"] as? Double == 0)
    #expect(frames.last?["progress"] as? Double == 1)
  }

  @Test("play --out never empties an existing FILE when the daemon refuses the scene")
  func refusedPlayKeepsTheOldRecording() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let out = try directory.write("flip.ndjson", "an earlier recording\n")
    let scene = TransitionctlProducts.scenes.appendingPathComponent("zoom-present-present.json")
      .path
    let refused = try TransitionctlRun.run(
      ["play", scene, "--animator", "no-such-animator", "--virtual", "--out", out],
      socket: daemon.socketPath)
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "an earlier recording\n")
    // Nothing is left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["flip.ndjson"])
    // A session that begins replaces it.
    let played = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "10", "--out", out], socket: daemon.socketPath)
    #expect(played.status == 0, "\(played.stderr)")
    let written = try String(contentsOfFile: out, encoding: .utf8)
    #expect(written.hasPrefix(#"{"#) && written.contains(#""event":"complete""#))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["flip.ndjson"])
    // A recording's usual mode (0644 less the umask), not mkstemp's 0600.
    let mask = umask(0)
    umask(mask)
    let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
    #expect(mode == Int(0o644 & ~mask), "mode \(String(mode ?? 0, radix: 8))")
  }

  @Test("play --out writes a self-describing recording to a file and nothing to stdout")
  func outFile() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let out = directory.file("frames.ndjson")
    let scene = TransitionctlProducts.scenes.appendingPathComponent("zoom-present-present.json")
      .path
    let result = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "10", "--out", out], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let written = try String(contentsOfFile: out, encoding: .utf8)
    let lines = try written.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // The begin event (all a renderer needs), every frame, the complete event: nothing else.
    let recording = try TransitionctlRecording(lines)
    #expect(recording.begin["container"] as? [Double] == [390, 844])
    #expect(recording.begin["animator"] as? String == "zoom-present")
    #expect(recording.begin["operation"] as? String == "present")
    #expect(recording.begin["clock"] as? String == "virtual")
    #expect(recording.begin["fps"] as? Double == 10)
    #expect(recording.begin["interactive"] as? Bool == false)
    #expect(recording.frames.count >= 2)
    #expect(recording.frames.map { $0["seq"] as? Int } == Array(0..<recording.frames.count))
    #expect(recording.complete["finished"] as? Bool == true)
    let session = recording.begin["session"] as? String
    #expect(lines.allSatisfy { $0["session"] as? String == session })
  }

  @Test("play on the wall clock runs to the end and exits 0")
  func wallClock() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = TransitionctlProducts.scenes.appendingPathComponent("default-slide-pop.json").path
    let result = try TransitionctlRun.run(
      ["play", scene, "--duration", "0.2", "--fps", "30"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.begin["clock"] as? String == "wall")
    #expect(recording.complete["finished"] as? Bool == true)
    let frames = recording.frames
    #expect(!frames.isEmpty)
    let seqs = frames.compactMap { $0["seq"] as? Int }
    #expect(seqs == seqs.sorted())
    #expect(frames.last?["progress"] as? Double == 1)
  }

  @Test("play --animator with an unknown animator exits 1 with the daemon's code")
  func unknownAnimator() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = TransitionctlProducts.scenes.appendingPathComponent("album-flip-push.json").path
    let result = try TransitionctlRun.run(
      ["play", scene, "--animator", "no-such-animator"], socket: daemon.socketPath)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("transitionctl: unknown_animator: "))
    #expect(result.stdout.isEmpty)
  }

  @Test("a scene with an invalid context exits 65 naming the file and the field as written")
  func invalidContext() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(
      "bad-frame.json",
      """
      {"operation": "push", "container": [390, 844],
       "from": {"layers": [{"id": "a", "frame": [0, 0, "wide", 10]}]},
       "to": {"layers": [{"id": "b", "frame": [0, 0, 10, 10]}]}}
      """)
    let result = try TransitionctlRun.run(["play", path], socket: daemon.socketPath)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("transitionctl: \(path): invalid_context: "))
    #expect(result.stderr.contains(": from.layers[0].frame[2] must be a number"))
    #expect(!result.stderr.contains("context."))
  }
}

/// `transitionctl play --route`: the operation's current route plays the scene, whatever the
/// scene's own `animator` says.
@Suite("transitionctl play --route", .serialized)
struct TransitionctlPlayRouteTests {
  /// The layer ids of the first frame of `play` with `extra` arguments.
  static func firstFrameIDs(_ daemon: TransitionctlDaemon, _ extra: [String]) throws -> [String] {
    let scene = try TransitionctlScene(named: "default-slide-present")
    let result = try TransitionctlRun.run(
      ["play", scene.url.path, "--virtual", "--fps", "10"] + extra, socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    let frame = try result.lines().first { $0["event"] as? String == "frame" }
    let layers = frame?["layers"] as? [[String: Any]] ?? []
    return layers.compactMap { $0["id"] as? String }
  }

  @Test func theRouteWinsOverTheScenesAnimator() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let use = try TransitionctlRun.run(["use", "present", "crossfade"], socket: daemon.socketPath)
    #expect(use.status == 0, "\(use.stderr)")
    let routed = try Self.firstFrameIDs(daemon, ["--route"])
    #expect(routed.contains("crossfade.from-background"), "\(routed)")
    // Without --route the scene's own animator (default-slide) plays it.
    let named = try Self.firstFrameIDs(daemon, [])
    #expect(named.contains("default-slide.from-background"), "\(named)")
    #expect(!named.contains("crossfade.from-background"))
  }

  @Test func routeAndAnimatorTogetherAreAUsageError() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = try TransitionctlScene(named: "default-slide-present")
    let result = try TransitionctlRun.run(
      ["play", scene.url.path, "--route", "--animator", "crossfade"], socket: daemon.socketPath)
    #expect(result.status == 64)
    #expect(result.stderr.contains("--animator NAME or --route, not both"))
  }

  @Test("play --delta --key-every N records deltas with a key frame every N frames")
  func deltaRecordingsRebuildTheFullRecording() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = try TransitionctlScene(named: "album-flip-push")
    let full = try TransitionctlRun.run(
      ["play", scene.url.path, "--virtual", "--fps", "30"], socket: daemon.socketPath)
    let delta = try TransitionctlRun.run(
      ["play", scene.url.path, "--virtual", "--fps", "30", "--delta", "--key-every", "7"],
      socket: daemon.socketPath)
    #expect(full.status == 0 && delta.status == 0, "\(full.stderr) \(delta.stderr)")
    func frames(_ text: String) throws -> [[String: JSONValue]] {
      // Each play is its own session: the frames are compared without their session id.
      try text.split(separator: "\n").map {
        try JSONValue(parsing: Array($0.utf8)).objectValue ?? [:]
      }
      .filter { $0["event"] == .string("frame") }
      .map { $0.merging(["session": "s"]) { $1 } }
    }
    let fullFrames = try frames(full.stdout)
    let deltaFrames = try frames(delta.stdout)
    #expect(deltaFrames.count == fullFrames.count)
    #expect(deltaFrames.count > 14)
    for (index, frame) in deltaFrames.enumerated() {
      #expect(frame["key"] == .bool(index % 7 == 0), "frame \(index)")
    }
    var applier = FrameDeltaApplier()
    for (frame, expected) in zip(deltaFrames, fullFrames) {
      #expect(try applier.apply(frame) == expected, "seq \(frame["seq"] ?? .null)")
    }
    #expect(delta.stdout.utf8.count * 2 < full.stdout.utf8.count)
    let refused = try TransitionctlRun.run(
      ["play", scene.url.path, "--key-every", "7"], socket: daemon.socketPath)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--key-every needs --delta"))
  }
}
