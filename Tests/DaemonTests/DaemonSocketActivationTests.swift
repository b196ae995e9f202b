import Foundation
import Testing
import TransitionClient

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Socket activation as systemd does it: the test creates and binds the listening socket,
/// spawns the daemon with it as fd 3 and `LISTEN_PID` (the daemon's own pid, set by a shell
/// that then `exec`s it) and `LISTEN_FDS=1`; the daemon serves on it without binding, chmod-ing
/// or removing anything.
@Suite("transitiond: socket activation", .serialized)
struct DaemonSocketActivationTests {
  /// A daemon spawned with `descriptor` as fd 3 and the activation variables.
  final class ActivatedDaemon {
    let pid: pid_t
    let logPath: String
    private var exited = false
    private(set) var status: Int32 = 0

    init(
      descriptor: Int32, listenFDs: String = "1", arguments: [String], logPath: String
    ) throws {
      self.logPath = logPath
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, descriptor, 3)
      posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      // The shell knows its pid ($$) and keeps it through exec: the daemon's pid.
      let script =
        "LISTEN_PID=$$ LISTEN_FDS=\(listenFDs) LISTEN_FDNAMES=transitiond.socket exec \"$0\" \"$@\""
      let argv = ["/bin/sh", "-c", script, DaemonHarness.product("transitiond")] + arguments
      var environment = ProcessInfo.processInfo.environment
      for name in [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "TRANSITIOND_PLUGIN_PATH",
        "TRANSITIOND_SOCKET", "LISTEN_PID", "LISTEN_FDS",
      ] {
        environment[name] = nil
      }
      let envp = environment.map { "\($0.key)=\($0.value)" }
      var cArguments = argv.map { strdup($0) } + [nil]
      var cEnvironment = envp.map { strdup($0) } + [nil]
      defer {
        for pointer in cArguments { free(pointer) }
        for pointer in cEnvironment { free(pointer) }
      }
      var pid: pid_t = 0
      let result = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArguments, &cEnvironment)
      guard result == 0 else { throw DaemonHarnessError("posix_spawn: \(result)") }
      self.pid = pid
    }

    deinit {
      if !exited {
        kill(pid, SIGKILL)
        _ = try? waitForExit()
      }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() throws -> Int32 {
      kill(pid, SIGTERM)
      return try waitForExit()
    }

    func waitForExit() throws -> Int32 {
      if exited { return status }
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0 {
        guard errno == EINTR else { throw DaemonHarnessError("waitpid: errno \(errno)") }
      }
      exited = true
      status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
      return status
    }
  }

  /// A listening AF_UNIX stream socket bound at `path`, as systemd's `ListenStream=` makes it.
  static func listeningSocket(at path: String, mode: mode_t) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw DaemonHarnessError("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, chmod(path, mode) == 0, listen(descriptor, 16) == 0 else {
      throw DaemonHarnessError("bind/listen \(path): errno \(errno)")
    }
    return descriptor
  }

  static func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
  }

  @Test("the daemon serves on the passed socket and leaves its file alone")
  func servesThePassedSocket() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let activatedPath = directory + "/activated.sock"
    let ownPath = directory + "/own.sock"
    let listener = try Self.listeningSocket(at: activatedPath, mode: 0o640)
    defer { close(listener) }
    let daemon = try ActivatedDaemon(
      descriptor: listener,
      arguments: ["--socket", ownPath, "--plugin-path", DaemonHarness.productsDirectory],
      logPath: directory + "/daemon.log")

    var hello: ServerInfo?
    _ = DaemonHarness.waitUntil {
      guard let client = try? DaemonClient(path: activatedPath) else { return false }
      defer { client.close() }
      client.defaultTimeout = .seconds(20)
      hello = try? client.hello()
      return hello != nil
    }
    #expect(hello?.pid == Int(daemon.pid), "\(daemon.log)")
    #expect(daemon.log.contains("listening on \(activatedPath) (socket activation)"))
    // It bound nothing of its own, took no lock beside the socket, and left the mode.
    #expect(!FileManager.default.fileExists(atPath: ownPath))
    #expect(!FileManager.default.fileExists(atPath: ownPath + ".lock"))
    #expect(Self.mode(activatedPath) == 0o640)
    #expect(try daemon.stop() == 0)
    // Stopping does not remove systemd's socket file.
    #expect(FileManager.default.fileExists(atPath: activatedPath))
  }

  @Test("more than one socket, or fd 3 not a listening Unix stream socket, is a start-up error")
  func badActivationIsRefused() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let listener = try Self.listeningSocket(at: directory + "/a.sock", mode: 0o600)
    defer { close(listener) }
    let arguments = [
      "--socket", directory + "/own.sock", "--plugin-path", DaemonHarness.productsDirectory,
    ]
    let two = try ActivatedDaemon(
      descriptor: listener, listenFDs: "2", arguments: arguments,
      logPath: directory + "/two.log")
    #expect(try two.waitForExit() == 78)
    #expect(two.log.contains("LISTEN_FDS=2"), "\(two.log)")

    let file = open(directory + "/plain", O_RDWR | O_CREAT, 0o600)
    defer { close(file) }
    let plain = try ActivatedDaemon(
      descriptor: file, arguments: arguments, logPath: directory + "/plain.log")
    #expect(try plain.waitForExit() == 78)
    #expect(plain.log.contains("fd 3 is not a socket"), "\(plain.log)")

    let unconnected = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(unconnected) }
    let idle = try ActivatedDaemon(
      descriptor: unconnected, arguments: arguments, logPath: directory + "/idle.log")
    #expect(try idle.waitForExit() == 78)
    #expect(idle.log.contains("fd 3 is not listening"), "\(idle.log)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/own.sock"))
  }
}
