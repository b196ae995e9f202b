import TransitionServer

/// A ``LogSink`` that keeps every entry, for tests that assert on what the core logs and
/// when (on their ``FakeClock``).
public final class RecordingLogSink: LogSink {
  /// Every entry written, oldest first.
  public private(set) var entries: [LogEntry] = []

  public init() {}

  public func write(_ entry: LogEntry) {
    entries.append(entry)
  }

  /// The messages of the entries at `level` (every level when nil) that contain `text`.
  public func messages(containing text: String, at level: LogLevel? = nil) -> [String] {
    entries.filter { ($0.level == level || level == nil) && $0.message.contains(text) }
      .map(\.message)
  }
}

@available(*, unavailable) extension RecordingLogSink: Sendable {}
