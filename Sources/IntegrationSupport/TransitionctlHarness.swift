import DaemonLauncher
import Foundation
import TransitionClient
import TransitionJSON

#if canImport(Glibc)
  import Glibc
#endif

/// An error of the test harness itself (a binary missing, a daemon that never came up).
struct TransitionctlHarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Where `swift test` put the executables and where the repository keeps its scenes.
enum TransitionctlProducts {
  /// The build products directory: `Bundle.main.bundlePath` or its parent, whichever holds
  /// `transitionctl`.
  static var directory: URL {
    let bundle = Bundle.main.bundleURL
    for candidate in [bundle, bundle.deletingLastPathComponent()]
    where FileManager.default.isExecutableFile(
      atPath: candidate.appendingPathComponent("transitionctl").path)
    {
      return candidate
    }
    return bundle
  }

  static var transitiond: URL { directory.appendingPathComponent("transitiond") }
  static var transitionctl: URL { directory.appendingPathComponent("transitionctl") }

  /// The repository's root, found from this file's path.
  static var repository: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The example scenes shipped in `config/scenes`.
  static var scenes: URL { repository.appendingPathComponent("config/scenes") }

  /// The example scenes of config/scenes, by name: every animator's operations (a test checks
  /// that the folder holds exactly these).
  static let sceneNames = [
    "album-flip-push", "album-flip-pop", "zoom-present-present", "zoom-present-dismiss",
    "default-slide-push", "default-slide-pop", "default-slide-present", "default-slide-dismiss",
    "zoom-present-matched-present", "zoom-present-matched-dismiss",
    "material-container-transform-present", "material-container-transform-dismiss",
    "material-container-transform-matched-present", "material-shared-axis-x-push",
    "material-shared-axis-x-pop", "material-shared-axis-y-push", "material-shared-axis-y-pop",
    "material-shared-axis-z-push", "material-shared-axis-z-pop", "material-fade-through-push",
    "material-fade-through-pop", "morph-push",
  ]

  /// Every example scene file, sorted by name.
  static func sceneFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: scenes, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// Whether a test can run the CLI as another user: it runs as root and `setpriv` exists.
  static var canSwitchUser: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
  }
}

/// A fresh temporary directory, removed by ``remove()``.
struct TransitionctlTemporaryDirectory {
  let url: URL
  var path: String { url.path }

  init() throws {
    var template = Array("/tmp/transitionctl-test-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw TransitionctlHarnessError("mkdtemp failed: errno \(errno)")
    }
    url = URL(fileURLWithPath: String(cString: created))
    // Readable by other users, for the tests that run the CLI as `nobody`.
    chmod(url.path, 0o755)
  }

  func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws -> String {
    let path = file(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A real `transitiond` started on a temporary socket, stopped by ``stop()``.
final class TransitionctlDaemon {
  let directory: TransitionctlTemporaryDirectory
  let socketPath: String
  let launcher: DaemonLauncher

  /// Starts the daemon from the build products with `--socket` in a fresh directory and waits
  /// until it answers `hello`.
  init() throws {
    directory = try TransitionctlTemporaryDirectory()
    socketPath = directory.file("d.sock")
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TRANSITIOND_SOCKET")
    environment.removeValue(forKey: "NOTIFY_SOCKET")
    for name in ["daemon.log", "daemon.err"] {
      _ = FileManager.default.createFile(atPath: directory.file(name), contents: nil)
    }
    launcher = try DaemonLauncher(
      binary: TransitionctlProducts.transitiond.path, socketPath: socketPath,
      environment: environment,
      standardOutput: FileHandle(forWritingAtPath: directory.file("daemon.log")),
      standardError: FileHandle(forWritingAtPath: directory.file("daemon.err")))
    do {
      try waitUntilAnswering()
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  /// The daemon's output so far, for failure messages.
  var log: String {
    ["daemon.log", "daemon.err"].map {
      (try? String(contentsOfFile: directory.file($0), encoding: .utf8)) ?? ""
    }.joined()
  }

  /// A library client connected to the daemon.
  func client() throws -> DaemonClient {
    try DaemonClient(path: socketPath)
  }

  /// Lets other users connect (the socket's mode is the daemon's choice; tests need 0666).
  func openSocketToEveryone() {
    chmod(socketPath, 0o666)
  }

  /// Stops the daemon (SIGTERM, then SIGKILL if it lingers) and waits for it, then removes
  /// its directory.
  func stop() {
    launcher.stop(within: 10)
    directory.remove()
  }

  private func waitUntilAnswering() throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
      if let client = try? DaemonClient(path: socketPath), (try? client.hello()) != nil {
        client.close()
        return
      }
      if let status = launcher.waitForExit(within: 0.02) {
        throw TransitionctlHarnessError("transitiond exited with status \(status): \(log)")
      }
      guard ContinuousClock.now < deadline else {
        throw TransitionctlHarnessError("transitiond did not answer on \(socketPath): \(log)")
      }
    }
  }

  /// Waits until `condition` holds for the daemon's `sessions` list (a session appeared, got a
  /// subscriber, …), polling it.
  func waitForSessions(
    _ what: String, until condition: ([SessionInfo]) -> Bool
  ) throws {
    let client = try client()
    defer { client.close() }
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
      if condition(try client.sessions()) { return }
      guard ContinuousClock.now < deadline else {
        throw TransitionctlHarnessError("gave up waiting for \(what)")
      }
      usleep(10_000)
    }
  }
}

/// What a finished `transitionctl` run printed and returned.
struct TransitionctlResult {
  let status: Int32
  let stdout: String
  let stderr: String

  /// Standard output parsed as one JSON object.
  func json() throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
    else {
      throw TransitionctlHarnessError("stdout is not a JSON object: \(stdout)")
    }
    return object
  }

  /// Standard output parsed as NDJSON, one object per line.
  func lines() throws -> [[String: Any]] {
    try stdout.split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else {
        throw TransitionctlHarnessError("line is not a JSON object: \(line)")
      }
      return object
    }
  }
}

/// A `transitionctl` process, run to completion or started in the background.
final class TransitionctlRun {
  let process: TransitionctlChildProcess
  private let directory: TransitionctlTemporaryDirectory
  private let commandLine: [String]

  /// Starts `transitionctl arguments…`.
  ///
  /// - Parameters:
  ///   - socket: passed as `--socket` when not nil.
  ///   - environment: added to the environment (from which `TRANSITIOND_SOCKET` is removed).
  ///   - asNobody: run as uid/gid 65534 through `setpriv`.
  init(
    _ arguments: [String], socket: String?, environment: [String: String] = [:],
    asNobody: Bool = false
  ) throws {
    directory = try TransitionctlTemporaryDirectory()
    var commandLine = arguments
    if let socket { commandLine += ["--socket", socket] }
    self.commandLine = commandLine
    var merged = ProcessInfo.processInfo.environment
    merged.removeValue(forKey: "TRANSITIOND_SOCKET")
    merged.merge(environment) { _, new in new }
    let executable = asNobody ? "/usr/bin/setpriv" : TransitionctlProducts.transitionctl.path
    let prefix =
      asNobody
      ? [
        "--reuid=65534", "--regid=65534", "--clear-groups", "--",
        TransitionctlProducts.transitionctl.path,
      ]
      : []
    process = try TransitionctlChildProcess(
      executable: executable, arguments: prefix + commandLine, environment: merged,
      stdout: directory.file("stdout"), stderr: directory.file("stderr"))
  }

  deinit {
    process.send(SIGKILL)
    _ = process.wait(seconds: 10)
    directory.remove()
  }

  /// Runs `transitionctl arguments…` to completion.
  ///
  /// - Parameter bound: seconds after which a run that has not exited is killed and fails the
  ///   test (a guard against hangs, not a measure of speed).
  static func run(
    _ arguments: [String], socket: String?, environment: [String: String] = [:],
    asNobody: Bool = false, bound: Double = 60
  ) throws -> TransitionctlResult {
    try TransitionctlRun(arguments, socket: socket, environment: environment, asNobody: asNobody)
      .wait(bound: bound)
  }

  /// What the process has written to standard output so far.
  var stdoutSoFar: String {
    (try? String(contentsOfFile: directory.file("stdout"), encoding: .utf8)) ?? ""
  }

  /// Waits for the process to exit (killing it after a generous bound so that a hang fails the
  /// test instead of blocking the suite) and returns its output.
  func wait(bound: Double = 60) throws -> TransitionctlResult {
    guard let status = process.wait(seconds: bound) else {
      process.send(SIGKILL)
      _ = process.wait(seconds: 10)
      throw TransitionctlHarnessError(
        "transitionctl \(commandLine) did not exit; stdout: \(stdoutSoFar)")
    }
    return TransitionctlResult(
      status: status,
      stdout: stdoutSoFar,
      stderr: (try? String(contentsOfFile: directory.file("stderr"), encoding: .utf8)) ?? "")
  }
}

/// An example scene from `config/scenes`, read independently of `transitionctl`.
struct TransitionctlScene {
  /// The scene file.
  let url: URL
  /// The transition context: the file without the keys only `play` reads.
  let context: [String: JSONValue]
  /// The animator the scene names.
  let animator: String?
  /// The scene's operation.
  let operation: String?

  /// Reads `config/scenes/<name>.json`.
  init(named name: String) throws {
    try self.init(url: TransitionctlProducts.scenes.appendingPathComponent("\(name).json"))
  }

  /// Reads the scene at `url`.
  init(url: URL) throws {
    self.url = url
    guard case .object(var fields) = try JSONValue(parsing: Array(try Data(contentsOf: url)))
    else {
      throw TransitionctlHarnessError("\(url.path) is not a JSON object")
    }
    animator = fields["animator"]?.stringValue
    operation = fields["operation"]?.stringValue
    for key in ["animator", "duration", "interactive", "description"] {
      fields.removeValue(forKey: key)
    }
    context = fields
  }
}

/// A recording as `transitionctl play` writes it: exactly one `begin` event first, then only
/// frames, then exactly one `complete` event.
struct TransitionctlRecording {
  let begin: [String: Any]
  let frames: [[String: Any]]
  let complete: [String: Any]

  /// Splits `lines`; throws unless they have that shape.
  init(_ lines: [[String: Any]]) throws {
    guard let first = lines.first, first["event"] as? String == "begin" else {
      throw TransitionctlHarnessError(
        "a recording starts with the begin event: \(lines.first ?? [:])")
    }
    guard lines.count >= 2, let last = lines.last, last["event"] as? String == "complete" else {
      throw TransitionctlHarnessError(
        "a recording ends with the complete event: \(lines.last ?? [:])")
    }
    let frames = Array(lines.dropFirst().dropLast())
    guard frames.allSatisfy({ $0["event"] as? String == "frame" }) else {
      throw TransitionctlHarnessError("between begin and complete a recording holds only frames")
    }
    begin = first
    self.frames = frames
    complete = last
  }
}
