import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `transitionctl play --loop` and `--watch` against the real daemon, which serves a data
/// animator from a watched directory: the loop replays, an editor's save of the animator file
/// or of the scene file starts a new session whose frames show the edit, and Ctrl-C ends the
/// running session.
@Suite("transitionctl play --loop and --watch", .serialized)
struct TransitionctlLoopTests {
  /// A present that fades the detail in from `from` to 1 over the whole duration.
  static func fade(from: Double) -> String {
    """
    {"operations": {"present": {"duration": 0.4, "rules": [
      {"select": {"screen": "from"}},
      {"select": {"screen": "to"}, "tracks": [{"property": "alpha", "from": \(from), "to": 1, "over": [0, 1]}]}
    ]}}}
    """
  }

  /// A scene the `fade` animator plays, its cell at `cellX`.
  static func scene(cellX: Double) -> String {
    """
    {"operation": "present", "container": [390, 844], "selected": "cell", "animator": "fade",
     "from": {"layers": [{"id": "cell", "frame": [\(cellX), 100, 100, 100], "background": "#ff0000ff"}]},
     "to": {"layers": [{"id": "detail", "frame": [0, 0, 390, 844], "background": "#0000ffff"}]}}
    """
  }

  /// A daemon serving `fade` from `<directory>/animators`, and the scene file beside it.
  struct Setup {
    let daemon: DaemonProcess
    let animatorFile: String
    let sceneFile: String

    init() throws {
      let directory = try DaemonHarness.makeTemporaryDirectory()
      // Readable by the plugin host, which runs as nobody when the tests run as root.
      chmod(directory, 0o755)
      let animators = directory + "/animators"
      try FileManager.default.createDirectory(
        atPath: animators, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
      animatorFile = animators + "/fade.json"
      try DaemonHarness.writeAtomically(TransitionctlLoopTests.fade(from: 0), to: animatorFile)
      sceneFile = directory + "/scene.json"
      try DaemonHarness.writeAtomically(TransitionctlLoopTests.scene(cellX: 20), to: sceneFile)
      daemon = try DaemonProcess(arguments: ["--animator-path", animators], directory: directory)
    }
  }

  /// The events `run` has written so far, by session in order of their begin events.
  static func sessions(_ run: TransitionctlRun) -> [(id: String, events: [[String: JSONValue]])] {
    var sessions: [(id: String, events: [[String: JSONValue]])] = []
    // A line still being written is left for later.
    for line in run.stdoutSoFar.split(separator: "\n", omittingEmptySubsequences: true) {
      guard case .object(let event)? = try? JSONValue(parsing: Array(line.utf8)),
        let session = event["session"]?.stringValue
      else { continue }
      if event["event"]?.stringValue == "begin" { sessions.append((session, [])) }
      if let index = sessions.lastIndex(where: { $0.id == session }) {
        sessions[index].events.append(event)
      }
    }
    return sessions
  }

  /// A layer's member in a frame event.
  static func layer(_ id: String, in frame: [String: JSONValue]) -> [String: JSONValue]? {
    frame["layers"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == id }
  }

  static func frames(_ events: [[String: JSONValue]]) -> [[String: JSONValue]] {
    events.filter { $0["event"]?.stringValue == "frame" }
  }

  /// Sends Ctrl-C and expects a clean end: status 0, the last session complete (cancelled),
  /// nothing left running in the daemon.
  static func interrupt(_ run: TransitionctlRun, _ setup: Setup) throws {
    run.process.send(SIGINT)
    let result = try run.wait(bound: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let last = try #require(sessions(run).last)
    #expect(last.events.last?["event"]?.stringValue == "complete", "\(last.events.last ?? [:])")
    let client = try setup.daemon.client()
    defer { client.close() }
    #expect(try client.sessions().isEmpty, "Ctrl-C ended the running session")
  }

  @Test("--loop plays the scene again whenever it completes")
  func loopReplays() throws {
    let setup = try Setup()
    let run = try TransitionctlRun(
      ["play", setup.sceneFile, "--loop", "--duration", "0.1"], socket: setup.daemon.socketPath)
    let replayed = DaemonHarness.waitUntil {
      Self.sessions(run).filter { $0.events.last?["finished"]?.boolValue == true }.count >= 2
    }
    #expect(replayed, "two rounds: \(run.stdoutSoFar.suffix(500)) \(setup.daemon.log)")
    let played = Self.sessions(run).prefix(2)
    #expect(Set(played.map(\.id)).count == 2, "each round is a session of its own")
    for session in played {
      #expect(session.events.first?["animator"]?.stringValue == "fade")
      #expect(!Self.frames(session.events).isEmpty)
    }
    try Self.interrupt(run, setup)
    let stderr = try run.wait().stderr
    #expect(stderr.contains("round 1: session "), "\(stderr)")
    #expect(stderr.contains("round 2: session "), "\(stderr)")
  }

  @Test("--watch: a save of the data animator file starts a session that plays the edit")
  func animatorEditReplays() throws {
    let setup = try Setup()
    // Long enough that only the edit ends the first session.
    let run = try TransitionctlRun(
      ["play", setup.sceneFile, "--watch", "--duration", "60"], socket: setup.daemon.socketPath)
    let playing = DaemonHarness.waitUntil {
      Self.sessions(run).first.map { !Self.frames($0.events).isEmpty } ?? false
    }
    try #require(playing, "\(run.stdoutSoFar.suffix(300)) \(setup.daemon.log)")
    try DaemonHarness.writeAtomically(Self.fade(from: 0.5), to: setup.animatorFile)
    let replayed = DaemonHarness.waitUntil {
      Self.sessions(run).count >= 2 && !Self.frames(Self.sessions(run)[1].events).isEmpty
    }
    try #require(replayed, "\(run.stdoutSoFar.suffix(300)) \(setup.daemon.log)")
    let sessions = Self.sessions(run)
    // The first session was ended by the edit, within its first seconds of 60.
    #expect(sessions[0].events.last?["finished"]?.boolValue == false)
    for frame in Self.frames(sessions[0].events) {
      let alpha = Self.layer("detail", in: frame)?["alpha"]?.numberValue ?? 1
      #expect(alpha < 0.5, "before the edit the detail fades in from 0: \(frame)")
    }
    for frame in Self.frames(sessions[1].events) {
      let alpha = Self.layer("detail", in: frame)?["alpha"]?.numberValue ?? 1
      #expect(alpha >= 0.5, "after it, from 0.5: \(frame)")
    }
    try Self.interrupt(run, setup)
  }

  @Test("--watch: a save of the scene file starts a session of the edited scene")
  func sceneEditReplays() throws {
    let setup = try Setup()
    let run = try TransitionctlRun(
      ["play", setup.sceneFile, "--watch", "--duration", "60"], socket: setup.daemon.socketPath)
    let playing = DaemonHarness.waitUntil {
      Self.sessions(run).first.map { !Self.frames($0.events).isEmpty } ?? false
    }
    try #require(playing, "\(run.stdoutSoFar.suffix(300)) \(setup.daemon.log)")
    try DaemonHarness.writeAtomically(Self.scene(cellX: 40), to: setup.sceneFile)
    let replayed = DaemonHarness.waitUntil {
      Self.sessions(run).count >= 2 && !Self.frames(Self.sessions(run)[1].events).isEmpty
    }
    try #require(replayed, "\(run.stdoutSoFar.suffix(300)) \(setup.daemon.log)")
    let sessions = Self.sessions(run)
    func cellX(_ frame: [String: JSONValue]) -> Double? {
      Self.layer("cell", in: frame)?["frame"]?.arrayValue?.first?.numberValue
    }
    #expect(Self.frames(sessions[0].events).allSatisfy { cellX($0) == 20 })
    #expect(Self.frames(sessions[1].events).allSatisfy { cellX($0) == 40 })
    try Self.interrupt(run, setup)
  }

  @Test("--loop and --watch are in play's help, with the exit status of a lost session")
  func help() throws {
    let result = try TransitionctlRun.run(["play", "--help"], socket: nil)
    #expect(result.status == 0)
    #expect(result.stdout.contains("--loop"))
    #expect(result.stdout.contains("--watch"))
    #expect(result.stdout.contains("5 the daemon stopped or restarted"))
  }
}
