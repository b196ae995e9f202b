import Glibc
import TransitionServer
import UnixIO

/// The daemon's ``LogSink``: one line per entry on standard error,
/// `2026-11-29T12:00:00Z info transitiond: message`, stamped with the UTC wall-clock time at
/// which it is written (the entry's own time is the core's monotonic clock, which a reader of
/// the log cannot place). A line that cannot be written is dropped: the log never stops the
/// daemon.
public final class StandardErrorLogSink: LogSink {
  /// The program name written before each message.
  public let program: String
  private let descriptor: Int32

  /// A sink writing to `descriptor` (standard error unless told).
  public init(program: String = "transitiond", descriptor: Int32 = 2) {
    self.program = program
    self.descriptor = descriptor
  }

  public func write(_ entry: LogEntry) {
    write(entry.level, entry.message)
  }

  /// Writes `message` at `level` now, without a logger: for what is said before the daemon
  /// and its clock exist (a start-up failure) or after they are gone (an unexpected exit).
  public func write(_ level: LogLevel, _ message: String) {
    let line = Self.line(level: level, message: message, program: program, at: time(nil))
    try? writeAll(Array(line.utf8), to: descriptor, isSocket: false)
  }

  /// The text of one log line, its `\n` included.
  static func line(level: LogLevel, message: String, program: String, at seconds: time_t)
    -> String
  {
    "\(timestamp(seconds)) \(level) \(program): \(LogEntry.oneLine(message))\n"
  }

  /// `seconds` since the epoch as UTC `YYYY-MM-DDTHH:MM:SSZ`.
  static func timestamp(_ seconds: time_t) -> String {
    var seconds = seconds
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

@available(*, unavailable) extension StandardErrorLogSink: Sendable {}
