import CProcessControl
import Glibc
import UnixIO

/// Starting a plugin host: a socketpair, then a fork and `execve` of the daemon's own executable
/// with the host's end as descriptor 3, every signal at its default and none blocked.
///
/// Not `posix_spawn`: its vfork holds the daemon's loop until the new host has reached
/// `execve`, and on a busy machine that is as long as the host waits for a CPU (a median of
/// 8.5 ms of every restart with three busy processes beside it, frames due meanwhile as late).
/// A fork copies the daemon's page tables instead (0.4 to 0.7 ms) and never waits for the
/// child.
public struct HostProcess: Sendable {
  /// The host's pid.
  public let pid: Int32
  /// The daemon's end of the socketpair: non-blocking, close-on-exec.
  public let descriptor: Int32
  /// A pidfd of the host (readable once it exits), or -1 where the kernel has none.
  public let exitDescriptor: Int32

  /// A failed step of ``spawn(executable:arguments:environment:)``.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  /// Starts `executable` with `arguments` (after its own path) and `environment`.
  /// - Throws: ``Failure`` naming the call that failed; nothing is left open then.
  public static func spawn(executable: String, arguments: [String], environment: [String: String])
    throws(Failure) -> HostProcess
  {
    // The child's execve reports no error to the daemon (a host that cannot start exits with
    // status 127): what makes most starts fail is said here, with its reason.
    guard access(executable, X_OK) == 0 else {
      let error = SystemError(errno: errno, function: "access", path: executable)
      throw Failure(description: "cannot start \(executable): \(error.reason)")
    }
    var pair: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        == 0
    else { throw Failure(description: "socketpair: \(String(cString: strerror(errno)))") }
    var daemonEnd = pair[0]
    let hostEnd = pair[1]
    // The child's descriptor 3 becomes the host's end (process_control_fork_exec clears its
    // close-on-exec when it is 3 already): the daemon's end must not be there.
    if daemonEnd == HostSandbox.channelDescriptor {
      let moved = fcntl(daemonEnd, F_DUPFD_CLOEXEC, 10)
      close(daemonEnd)
      daemonEnd = moved
    }
    defer { close(hostEnd) }
    let (pid, forkError) = withExecVectors(
      executable: executable, arguments: arguments, environment: environment
    ) { argv, envp in
      let pid = process_control_fork_exec(
        executable, argv, envp, hostEnd, HostSandbox.channelDescriptor)
      return (pid, errno)
    }
    guard pid > 0 else {
      let error = SystemError(errno: forkError, function: "fork")
      close(daemonEnd)
      throw Failure(description: "cannot start \(executable): \(error.reason)")
    }
    let flags = fcntl(daemonEnd, F_GETFL)
    _ = fcntl(daemonEnd, F_SETFL, flags | O_NONBLOCK)
    let exitDescriptor = process_control_pidfd_open(pid)
    if exitDescriptor >= 0 { _ = fcntl(exitDescriptor, F_SETFD, FD_CLOEXEC) }
    return HostProcess(pid: pid, descriptor: daemonEnd, exitDescriptor: exitDescriptor)
  }

  /// How a reaped host ended: `exited with status N` or `was killed by SIGSEGV
  /// (Segmentation fault)` (the signal's number for one without a name here).
  public static func describe(waitStatus status: Int32) -> String {
    let signal = status & 0x7f
    if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
    let description = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
    return "was killed by \(signalName(signal)) (\(description))"
  }

  /// The C name of a signal (`SIGSEGV`), or `signal N` for one not listed.
  public static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGILL: "SIGILL", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
      SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGPIPE: "SIGPIPE",
      SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGALRM: "SIGALRM",
      SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}
