import FrameStreaming

/// What the core and the daemon log: one ``LogEntry`` per event, handed to a ``LogSink``
/// (docs/architecture.md, "Logs").
///
/// Entries below ``level`` are dropped before their message is built. A message's newlines
/// are replaced by spaces, so every entry is exactly one line. The time of an entry, and of
/// the throttle of refusals, is the ``ServerClock``'s: a test that advances its clock by hand
/// sees the log it would see over that time. Used on the clock's thread only.
public final class Logger {
  /// The most detailed level written.
  public var level: LogLevel
  private let clock: any ServerClock
  private let sink: any LogSink
  /// Bounds the warnings a client can cause at will (``warnRefusal(_:)``).
  private var refusals = LogThrottle(burst: 10)

  /// Creates a logger.
  ///
  /// - Parameters:
  ///   - level: The most detailed level written.
  ///   - clock: The clock every entry is timed with.
  ///   - sink: Where the entries go.
  public init(level: LogLevel, clock: any ServerClock, sink: any LogSink) {
    self.level = level
    self.clock = clock
    self.sink = sink
  }

  /// Writes `message` at `messageLevel` when ``level`` allows it.
  public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
    guard messageLevel <= level else { return }
    write(messageLevel, message(), at: clock.now)
  }

  /// Writes `message` at level `error`.
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  /// Writes `message` at level `warn`.
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  /// Writes `message` at level `warn`, for a refusal a client can cause as often as it likes
  /// (over its share, an admin op, an overlong line): at most 10 such lines in a second of the
  /// clock; the count of those held back is written with the next one (``LogThrottle``).
  public func warnRefusal(_ message: @autoclosure () -> String) {
    guard LogLevel.warn <= level else { return }
    let now = clock.now
    let (admitted, suppressed) = refusals.admit(at: now)
    guard admitted else { return }
    write(
      .warn, message() + (suppressed > 0 ? " (\(suppressed) more refusals not logged)" : ""),
      at: now)
  }

  /// Writes `message` at level `info`.
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  /// Writes `message` at level `debug`.
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  private func write(_ level: LogLevel, _ message: String, at time: Double) {
    sink.write(LogEntry(level: level, message: message, time: time))
  }
}

@available(*, unavailable) extension Logger: Sendable {}
