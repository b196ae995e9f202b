import Foundation
import Glibc
import UnixIO

/// A `transitiond` process started on a Unix socket, and the waits around it: until its socket
/// accepts a connection, until it exits. The one launcher of the integration tests, the
/// benchmark and the soak; each adds its own config, checks and clean-up around it.
///
/// Every wait polls its condition with a deadline; nothing sleeps for a fixed time.
public final class DaemonLauncher {
  /// The socket the daemon was told to listen on (`--socket`).
  public let socketPath: String
  /// The daemon's process.
  public let process = Process()

  /// Starts `binary --socket socketPath arguments…`.
  ///
  /// - Parameters:
  ///   - binary: The `transitiond` executable.
  ///   - socketPath: Its socket.
  ///   - arguments: More command-line arguments, after `--socket`.
  ///   - environment: The daemon's whole environment; nil for this process's.
  ///   - standardOutput: Where its standard output goes (nil inherits this process's).
  ///   - standardError: Where its standard error goes (nil inherits this process's).
  /// - Throws: What starting the process throws (`ETXTBSY` among them: a caller that has just
  ///   copied the binary may retry).
  public init(
    binary: String, socketPath: String, arguments: [String] = [],
    environment: [String: String]? = nil,
    standardOutput: FileHandle? = FileHandle.nullDevice, standardError: FileHandle? = nil
  ) throws {
    self.socketPath = socketPath
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--socket", socketPath] + arguments
    if let environment { process.environment = environment }
    if let standardOutput { process.standardOutput = standardOutput }
    if let standardError { process.standardError = standardError }
    try process.run()
  }

  /// The daemon's process id.
  public var pid: Int32 { process.processIdentifier }

  /// Whether the daemon still runs.
  public var isRunning: Bool { process.isRunning }

  /// Waits until the socket accepts a connection (closed at once), polling every `interval`.
  ///
  /// - Returns: True when it accepted; false when the daemon exited first or `seconds`
  ///   passed.
  @discardableResult
  public func waitUntilAccepting(within seconds: Double, every interval: Double = 0.01) -> Bool {
    let path = socketPath
    let accepted = Self.poll(within: seconds, every: interval) {
      guard process.isRunning else { return true }
      guard let descriptor = try? UnixSocket.connect(path: path) else { return false }
      Glibc.close(descriptor)
      return true
    }
    return accepted && process.isRunning
  }

  /// Sends `signal` to the daemon.
  public func send(_ signal: Int32) {
    Glibc.kill(process.processIdentifier, signal)
  }

  /// Waits up to `seconds` for the daemon to exit by itself.
  ///
  /// - Returns: Its exit status, or nil when it still runs.
  public func waitForExit(within seconds: Double) -> Int32? {
    guard Self.poll(within: seconds, until: { !process.isRunning }) else { return nil }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Sends SIGTERM, waits up to `seconds` for the exit, then sends SIGKILL and waits.
  ///
  /// - Returns: The exit status (the signal's when it was killed).
  @discardableResult
  public func stop(within seconds: Double = 10) -> Int32 {
    if process.isRunning { send(SIGTERM) }
    if let status = waitForExit(within: seconds) { return status }
    send(SIGKILL)
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Waits until `condition` holds, checking it every `interval` for at most `seconds`.
  ///
  /// - Returns: Whether it held before the deadline (it is checked once more at the deadline).
  @discardableResult
  public static func poll(
    within seconds: Double, every interval: Double = 0.01, until condition: () throws -> Bool
  ) rethrows -> Bool {
    let deadline = MonotonicClock.seconds() + seconds
    while MonotonicClock.seconds() < deadline {
      if try condition() { return true }
      usleep(UInt32(max(interval, 0.000_1) * 1e6))
    }
    return try condition()
  }
}

@available(*, unavailable) extension DaemonLauncher: Sendable {}
