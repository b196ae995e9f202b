import DaemonLauncher
import Foundation
import Glibc
import TransitionClient
import TransitionJSON

/// Helpers for the daemon's integration tests.
enum DaemonHarness {
  /// The directory holding the built `transitiond`, `transitionctl` and `lib<Name>.so` plugins.
  static let productsDirectory: String = {
    let bundle = Bundle.main.bundlePath
    let candidates = [bundle, (bundle as NSString).deletingLastPathComponent]
    return candidates.first {
      FileManager.default.isExecutableFile(
        atPath: ($0 as NSString).appendingPathComponent("transitiond"))
    } ?? bundle
  }()

  /// The path of a built product.
  static func product(_ name: String) -> String {
    (productsDirectory as NSString).appendingPathComponent(name)
  }

  /// A fresh directory under /tmp with a short path (AF_UNIX paths are at most 107 bytes).
  static func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/td-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw DaemonHarnessError("mkdtemp failed") }
    return String(cString: made)
  }

  /// Waits until `condition` holds, polling every 10 ms for at most `seconds`.
  ///
  /// - Returns: Whether the condition held before the deadline.
  @discardableResult
  static func waitUntil(seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    try DaemonLauncher.poll(within: seconds, until: condition)
  }

  /// The TCP sockets (IPv4 and IPv6) open in process `pid`: each one's inode from
  /// /proc/PID/fd matched against /proc/net/tcp and tcp6, and whether it listens (state 0A).
  static func tcpSockets(of pid: pid_t) throws -> [(inode: String, listening: Bool)] {
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
    let inodes = Set(
      fds.compactMap { fd -> String? in
        guard
          let target = try? FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/\(pid)/fd/\(fd)"),
          target.hasPrefix("socket:[")
        else { return nil }
        return String(target.dropFirst(8).dropLast())
      })
    var sockets: [(String, Bool)] = []
    for table in ["/proc/\(pid)/net/tcp", "/proc/\(pid)/net/tcp6"] {
      let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
      for line in text.components(separatedBy: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 9, inodes.contains(String(fields[9])) else { continue }
        sockets.append((String(fields[9]), fields[3] == "0A"))
      }
    }
    return sockets
  }

  /// Writes `text` to `path` at once (a temporary file renamed over it), mode 0644, so that a
  /// watcher never sees it half written.
  static func writeAtomically(_ text: String, to path: String) throws {
    let temporary = path + ".tmp~"
    try text.write(toFile: temporary, atomically: false, encoding: .utf8)
    chmod(temporary, 0o644)
    guard rename(temporary, path) == 0 else { throw DaemonHarnessError("rename failed") }
  }

  /// Compiles the C plugin source `source` against the plugin header into the shared library
  /// `library` (mode 0755).
  static func compilePlugin(source: String, to library: String) throws {
    let header = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/CTransitionPlugin/include").path
    let result = try runProgram(
      "/usr/bin/env",
      ["cc", "-std=c11", "-shared", "-fPIC", "-I", header, "-o", library, source])
    guard result.status == 0 else {
      throw DaemonHarnessError("cc failed for \(source): \(result.stderr)")
    }
    chmod(library, 0o755)
  }

  /// Runs a program to completion and returns its status, standard output and standard error.
  static func runProgram(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outputPath = directory + "/stdout"
    let errorPath = directory + "/stderr"
    var attempt = 0
    while true {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
      if let environment { process.environment = environment }
      _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
      _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
      process.standardOutput = FileHandle(forWritingAtPath: outputPath)
      process.standardError = FileHandle(forWritingAtPath: errorPath)
      do {
        try process.run()
      } catch  where isTextFileBusy(error) && attempt < 100 {
        // A program copied just now can still be open for writing in a child that another
        // test forked meanwhile (it closes at that child's exec): wait and try again.
        attempt += 1
        usleep(20_000)
        continue
      }
      process.waitUntilExit()
      let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
      return (process.terminationStatus, output, error)
    }
  }

  /// Whether `error` is `ETXTBSY` from starting a program.
  static func isTextFileBusy(_ error: Error) -> Bool {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain, error.code == Int(ETXTBSY) { return true }
    guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
    return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(ETXTBSY)
  }
}

/// A failure of the test harness itself (not of the daemon under test).
struct DaemonHarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The real `transitiond` binary running on a temporary socket, with the real plugins.
///
/// Stopped (SIGTERM, then SIGKILL if needed) and its directory removed when released: a
/// directory it made always, one it was given once the daemon has run (a start that failed
/// leaves the caller's directory, its log included, for the caller to start again in).
final class DaemonProcess {
  let directory: String
  let socketPath: String
  let configPath: String?
  let logPath: String
  let launcher: DaemonLauncher
  /// Whether ``directory`` is removed when this is released.
  private var removesDirectory: Bool

  /// Starts the daemon and waits for its socket to accept connections.
  ///
  /// - Parameters:
  ///   - config: The config file's JSON text, or nil to run on the defaults.
  ///   - arguments: More command-line arguments.
  ///   - environment: Extra environment variables.
  ///   - directory: A directory to use instead of a fresh one.
  ///   - pluginPath: The `--plugin-path` to pass; nil passes none.
  ///   - waitForSocket: Whether to wait until the socket accepts a connection.
  init(
    config: String? = nil, arguments: [String] = [], environment: [String: String] = [:],
    directory: String? = nil, socketName: String = "d.sock",
    binary: String = DaemonHarness.product("transitiond"),
    pluginPath: String? = DaemonHarness.productsDirectory,
    waitForSocket: Bool = true
  ) throws {
    let made = directory == nil
    let directory = try directory ?? DaemonHarness.makeTemporaryDirectory()
    self.directory = directory
    removesDirectory = false
    socketPath = directory + "/" + socketName
    logPath = directory + "/daemon.log"
    if let config {
      let path = directory + "/transitiond.json"
      try config.write(toFile: path, atomically: true, encoding: .utf8)
      configPath = path
    } else {
      configPath = nil
    }
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    var allArguments = pluginPath.map { ["--plugin-path", $0] } ?? []
    if let configPath { allArguments += ["--config", configPath] }
    var variables = ProcessInfo.processInfo.environment
    variables["NOTIFY_SOCKET"] = nil
    variables["WATCHDOG_USEC"] = nil
    variables["WATCHDOG_PID"] = nil
    variables["TRANSITIOND_PLUGIN_PATH"] = nil
    for (key, value) in environment { variables[key] = value }
    do {
      launcher = try DaemonLauncher(
        binary: binary, socketPath: socketPath, arguments: allArguments + arguments,
        environment: variables, standardError: FileHandle(forWritingAtPath: logPath))
    } catch {
      // A directory made here goes with the failed start; one given stays for a retry.
      if made { try? FileManager.default.removeItem(atPath: directory) }
      throw error
    }
    removesDirectory = true
    if waitForSocket, !launcher.waitUntilAccepting(within: 20) {
      throw DaemonHarnessError("transitiond did not start: \(log)")
    }
  }

  deinit {
    if launcher.isRunning {
      launcher.send(SIGKILL)
      launcher.process.waitUntilExit()
    }
    if removesDirectory { try? FileManager.default.removeItem(atPath: directory) }
  }

  /// The daemon's process.
  var process: Process { launcher.process }

  var pid: pid_t { launcher.pid }

  /// A new client connection.
  func client() throws -> DaemonClient {
    let client = try DaemonClient(path: socketPath)
    client.defaultTimeout = .seconds(20)
    return client
  }

  /// Everything the daemon wrote to standard error so far.
  var log: String {
    (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
  }

  /// Sends `signal` to the daemon.
  func send(_ signal: Int32) {
    launcher.send(signal)
  }

  /// Sends SIGTERM and waits for the exit status.
  @discardableResult
  func stop() -> Int32 {
    if launcher.isRunning { send(SIGTERM) }
    launcher.process.waitUntilExit()
    return launcher.process.terminationStatus
  }

  /// Waits for the process to exit by itself (for at most 20 s) and returns its status.
  func waitForExit() throws -> Int32 {
    guard let status = launcher.waitForExit(within: 20) else {
      throw DaemonHarnessError("transitiond did not exit")
    }
    return status
  }
}

extension DaemonProcess {
  /// Starts a daemon from a copy of its binary made just now, which can still be open for
  /// writing in a child another test forked (it closes at that child's exec, which a loaded
  /// machine can delay by seconds): `ETXTBSY` is retried every 20 ms for up to 20 s.
  /// `whenBusy` is called after each start refused with `ETXTBSY`, before the next.
  static func startCopy(
    _ binary: String, arguments: [String] = [], directory: String? = nil,
    pluginPath: String? = nil, whenBusy: () -> Void = {}
  ) throws -> DaemonProcess {
    for _ in 0..<1000 {
      do {
        return try DaemonProcess(
          arguments: arguments, directory: directory, binary: binary, pluginPath: pluginPath)
      } catch  where DaemonHarness.isTextFileBusy(error) {
        whenBusy()
        usleep(20_000)
      }
    }
    return try DaemonProcess(
      arguments: arguments, directory: directory, binary: binary, pluginPath: pluginPath)
  }
}

/// Transition contexts the tests begin sessions with.
enum DaemonScenes {
  /// A push context album-flip accepts: `cover` is the tapped album.
  static func albumPush() -> [String: JSONValue] {
    [
      "operation": "push", "container": [390, 844], "selected": "cover",
      "from": [
        "background": "#ffffffff",
        "layers": [
          [
            "id": "cover", "frame": [16, 107, 171, 171], "background": "#d8d8d8ff",
            "content": ["image": "album.jpg"],
          ],
          ["id": "title", "frame": [16, 284, 171, 20]],
        ],
      ],
      "to": [
        "background": "#ffffffff",
        "layers": [
          ["id": "photo-1", "frame": [0, 94, 128, 128]],
          ["id": "photo-2", "frame": [131, 94, 128, 128]],
        ],
      ],
    ]
  }

  /// A push context without a selected layer: album-flip declines it.
  static func plainPush() -> [String: JSONValue] {
    [
      "operation": "push", "container": [390, 844],
      "from": ["layers": [["id": "list", "frame": [0, 0, 390, 844]]]],
      "to": ["layers": [["id": "detail", "frame": [0, 0, 390, 844]]]],
    ]
  }

  /// A present context crossfade and zoom-present accept.
  static func present() -> [String: JSONValue] {
    [
      "operation": "present", "container": [390, 844], "selected": "cell",
      "from": [
        "layers": [["id": "cell", "frame": [20, 100, 100, 100], "background": "#ff0000ff"]]
      ],
      "to": ["layers": [["id": "detail", "frame": [0, 0, 390, 844], "background": "#0000ffff"]]],
    ]
  }
}

extension DaemonClient {
  /// Sends `request` and returns the reply, whether `ok` or not.
  func rawReply(_ request: [String: JSONValue]) throws -> Reply {
    let id = try send(request)
    return try reply(to: id, timeout: .seconds(20))
  }

  /// The error code of the reply to `request` (nil when it succeeded).
  func errorCode(_ request: [String: JSONValue]) throws -> String? {
    try rawReply(request).errorCode
  }

  /// The next event, waiting at most 20 s.
  func event() throws -> Event {
    try nextEvent(timeout: .seconds(20))
  }
}
