import Glibc
import UnixIO

/// A program started with `posix_spawn`, with chosen descriptors in place of its own.
///
/// Every descriptor the parent passes in `descriptors` (child number → parent descriptor) is
/// the child's at that number; nothing else leaks into it (the parent's own descriptors are
/// close-on-exec, or closed by the caller). The parent closes its copies of what it passed after
/// the spawn. ``wait()`` reaps the child once.
public final class ChildProcess {
  /// The child's pid.
  public let pid: pid_t
  private var status: Int32?

  /// Why a program could not be started.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  /// Starts `executable` (a path) with `arguments` after its own path, in `environment`.
  ///
  /// - Parameter descriptors: the child's descriptor numbers and the parent descriptors to put
  ///   there. Numbers not listed among 0, 1 and 2 are `/dev/null`.
  /// - Throws: ``Failure`` naming the program and the system's reason.
  public init(
    executable: String, arguments: [String], environment: [String: String],
    descriptors: [Int32: Int32]
  ) throws(Failure) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto the same number keeps close-on-exec: give every source a number of its own
    // first, above anything the child is given.
    var moved: [Int32] = []
    defer { for descriptor in moved { close(descriptor) } }
    for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
      let copy = fcntl(source, F_DUPFD_CLOEXEC, 100)
      guard copy >= 0 else {
        throw Failure(description: "cannot start \(executable): \(Self.reason(errno))")
      }
      moved.append(copy)
      posix_spawn_file_actions_adddup2(&actions, copy, target)
    }
    for target: Int32 in 0...2 where descriptors[target] == nil {
      posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
    }
    do {
      pid = try spawnProcess(
        executable: executable, arguments: arguments, environment: environment,
        fileActions: &actions)
    } catch {
      throw Failure(description: "cannot start \(executable): \(error.reason)")
    }
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }

  /// Waits for the child to exit and returns its wait status (the same value on every call).
  @discardableResult
  public func wait() -> Int32 {
    if let status { return status }
    let raw = waitForChild(pid)
    status = raw
    return raw
  }

  /// The child's wait status if it has exited (reaping it), nil while it runs.
  public func exitedStatus() -> Int32? {
    if let status { return status }
    var raw: Int32 = 0
    guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
    status = raw
    return raw
  }

  /// Sends `signal` to the child unless it has been reaped.
  public func send(_ signal: Int32) {
    if status == nil { kill(pid, signal) }
  }

  /// Creates a pipe whose two ends are close-on-exec: `(read, write)`.
  public static func pipe() throws(Failure) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard Glibc.pipe(&ends) == 0 else {
      throw Failure(description: "pipe: \(reason(errno))")
    }
    // pipe2 is not imported; nothing else spawns meanwhile in the programs that use this.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
