import Glibc
import UnixIO

/// Writes one line per event to standard error:
/// `2026-11-29T12:00:00Z info transitiond: message`.
///
/// Lines below ``level`` are dropped. A message's newlines are replaced by spaces, so every
/// event is exactly one line. Used on the loop thread only.
public final class Logger {
  /// The most detailed level written.
  public var level: LogLevel
  private let name: String
  /// Bounds the warnings a client can cause at will (``warnRefusal(_:)``).
  private var refusals = LogThrottle(burst: 10)

  /// Creates a logger.
  ///
  /// - Parameters:
  ///   - level: The most detailed level written.
  ///   - name: The program name written before each message.
  public init(level: LogLevel, name: String = "transitiond") {
    self.level = level
    self.name = name
  }

  /// Writes `message` at `messageLevel` when ``level`` allows it.
  public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
    guard messageLevel <= level else { return }
    let text = message().map { $0.isNewline ? " " : $0 }
    let line = "\(Self.timestamp()) \(messageLevel) \(name): \(String(text))\n"
    // A log line that cannot be written is dropped: there is nowhere to report it.
    try? writeAll(Array(line.utf8), to: 2, isSocket: false)
  }

  /// Writes `message` at level `error`.
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  /// Writes `message` at level `warn`.
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  /// Writes `message` at level `warn`, for a refusal a client can cause as often as it likes
  /// (over its share, an admin op, an overlong line): at most 10 such lines a second; the
  /// count of those held back is written with the next one (``LogThrottle``).
  public func warnRefusal(_ message: @autoclosure () -> String) {
    guard LogLevel.warn <= level else { return }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let (write, suppressed) = refusals.admit(at: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    guard write else { return }
    log(.warn, message() + (suppressed > 0 ? " (\(suppressed) more refusals not logged)" : ""))
  }

  /// Writes `message` at level `info`.
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  /// Writes `message` at level `debug`.
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  /// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
  static func timestamp() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

@available(*, unavailable) extension Logger: Sendable {}
