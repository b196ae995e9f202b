import Foundation
import UnixIO

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with `posix_spawn`, with an empty signal mask and default signal
/// dispositions.
///
/// Foundation's `Process` passes on the spawning thread's signal mask, and test threads block
/// `SIGTERM`: a daemon started that way could never be stopped with it. Output goes to files
/// so that neither pipe can fill up and stall the child.
final class TransitionctlChildProcess: @unchecked Sendable {
  /// The child's process id.
  let pid: pid_t
  private let lock = NSLock()
  private var exitStatus: Int32?
  private let exited = DispatchSemaphore(value: 0)

  /// Starts `executable` with `arguments`.
  ///
  /// - Parameters:
  ///   - environment: the child's whole environment.
  ///   - stdout: file that receives standard output (created or truncated).
  ///   - stderr: file that receives standard error (created or truncated).
  init(
    executable: String, arguments: [String], environment: [String: String], stdout: String,
    stderr: String
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let child: pid_t
    do {
      child = try spawnProcess(
        executable: executable, arguments: arguments, environment: environment,
        fileActions: &actions)
    } catch {
      throw TransitionctlHarnessError("cannot start \(executable): \(error.reason)")
    }
    pid = child

    // A thread that reaps the child: waiting on it is then a semaphore, not a polling loop.
    let thread = Thread { [self] in
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      let low = status & 0x7f
      let code = low == 0 ? (status >> 8) & 0xff : 128 + low
      lock.lock()
      exitStatus = code
      lock.unlock()
      exited.signal()
    }
    thread.start()
  }

  /// Whether the child has not exited yet.
  var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return exitStatus == nil
  }

  /// Sends `signal` to the child, if it still runs.
  func send(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  /// Waits up to `seconds` for the child to exit.
  ///
  /// - Returns: its exit status (128 + the signal when a signal ended it), or `nil` when it is
  ///   still running.
  func wait(seconds: Double) -> Int32? {
    if exited.wait(timeout: .now() + seconds) == .timedOut { return nil }
    exited.signal()  // Later waits return at once.
    lock.lock()
    defer { lock.unlock() }
    return exitStatus
  }
}
