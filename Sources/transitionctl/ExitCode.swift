/// Process exit statuses of `transitionctl`, following `sysexits.h` where one fits.
enum ExitCode {
  /// Success; for `play` and `watch SESSION`, the session finished.
  static let success: Int32 = 0
  /// The daemon refused a request (its code and message are printed).
  static let daemonError: Int32 = 1
  /// `play` or `watch SESSION`: the session was cancelled.
  static let cancelled: Int32 = 3
  /// `play`: the animator the scene or `--animator` named did not serve the session (it
  /// declined, failed or faulted) and the daemon's fallback played it to the end instead.
  static let playedByFallback: Int32 = 4
  /// `play` or `watch SESSION`: the daemon stopped (or restarted) before the session
  /// completed, and took the session with it.
  static let sessionLost: Int32 = 5
  /// EX_USAGE: the command line is wrong.
  static let usage: Int32 = 64
  /// EX_DATAERR: the input (a scene file) is not valid.
  static let dataError: Int32 = 65
  /// EX_NOINPUT: an input file does not exist or cannot be read.
  static let noInput: Int32 = 66
  /// EX_UNAVAILABLE: the daemon cannot be reached, or it went away; or a program a command
  /// needs (`chromium`, `ffmpeg`) is not installed.
  static let unavailable: Int32 = 69
  /// EX_SOFTWARE: a helper program (the browser, the encoder) failed while working.
  static let software: Int32 = 70
  /// EX_CANTCREAT: an output file cannot be created.
  static let cannotCreate: Int32 = 73
  /// EX_IOERR: writing the output failed.
  static let ioError: Int32 = 74
  /// EX_TEMPFAIL: the daemon did not answer in time.
  static let temporaryFailure: Int32 = 75
  /// EX_PROTOCOL: the daemon sent something the protocol does not allow.
  static let protocolError: Int32 = 76
  /// EX_NOPERM: the daemon refused an admin request from this user.
  static let permissionDenied: Int32 = 77
}
