import Glibc

/// Turns an `exit()` called while the daemon serves (by a library it links; plugins run in
/// the plugin host process, where this is not armed) into a logged failure: one error line and exit status 70 (`EX_SOFTWARE`)
/// instead of a silent status 0, so that a supervisor sees a failure and restarts the daemon.
///
/// ```swift
/// UnexpectedExit.arm()
/// try daemon.run()
/// UnexpectedExit.disarm()
/// ```
enum UnexpectedExit {
  /// `EX_SOFTWARE` from sysexits.h.
  static let status: Int32 = 70

  nonisolated(unsafe) private static var armed = false
  nonisolated(unsafe) private static var registered = false

  /// From now until ``disarm()``, any `exit()` logs and ends the process with ``status``.
  static func arm() {
    armed = true
    guard !registered else { return }
    registered = true
    atexit {
      guard UnexpectedExit.armed else { return }
      UnexpectedExit.armed = false
      StandardErrorLogSink().write(
        .error,
        "exit() was called while serving; exiting with status "
          + "\(UnexpectedExit.status) so that the supervisor restarts the daemon")
      _exit(UnexpectedExit.status)
    }
  }

  /// The daemon is returning normally: an `exit()` from here on is expected.
  static func disarm() {
    armed = false
  }
}
