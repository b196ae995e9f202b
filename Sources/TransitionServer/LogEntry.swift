import FrameStreaming

/// One event of the log, as a ``Logger`` hands it to its ``LogSink``.
public struct LogEntry: Equatable, Sendable {
  /// How much it matters.
  public var level: LogLevel
  /// What happened: one line (a message's newlines were turned into spaces).
  public var message: String
  /// When, on the logger's ``ServerClock`` (monotonic seconds).
  public var time: Double

  /// An entry of `message` made one line: its newlines become spaces.
  public init(level: LogLevel, message: String, time: Double) {
    self.level = level
    self.message = Self.oneLine(message)
    self.time = time
  }

  /// `text` with each newline replaced by a space, so that it is exactly one line of a log.
  public static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }
}
