import Glibc

/// SIGINT, SIGTERM and SIGHUP turned into a readable descriptor (the self-pipe trick), so that
/// a command waiting on the daemon's socket can also wait for Ctrl-C and end its session
/// cleanly instead of dying in the middle of it.
///
/// ``install()`` replaces the three signals' default action for the rest of the process; the
/// handler only writes one byte to the pipe (async-signal-safe).
enum InterruptSignal {
  /// The pipe's read end, once installed; readable after one of the signals arrived.
  nonisolated(unsafe) private(set) static var descriptor: Int32 = -1
  nonisolated(unsafe) private static var writeEnd: Int32 = -1

  /// Installs the handler (once).
  ///
  /// - Returns: the descriptor to poll, readable once a signal arrived (it stays readable).
  /// - Throws: ``ExitCode/software`` when the pipe cannot be made.
  @discardableResult
  static func install() throws(CommandFailure) -> Int32 {
    if descriptor >= 0 { return descriptor }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw CommandFailure(
        ExitCode.software, "cannot watch for Ctrl-C: \(String(cString: strerror(errno)))")
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    descriptor = ends[0]
    writeEnd = ends[1]
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        var byte: UInt8 = 1
        _ = write(InterruptSignal.writeEnd, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signal, &action, nil)
    }
    return descriptor
  }

  /// Whether one of the signals has arrived (it is not consumed: the descriptor stays
  /// readable).
  static var arrived: Bool {
    guard descriptor >= 0 else { return false }
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }
}
