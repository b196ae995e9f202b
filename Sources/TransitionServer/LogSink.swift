import FrameStreaming

/// Where log entries go: standard error, the journal, a test's list (docs/architecture.md,
/// "Logs").
///
/// A ``Logger`` decides what is written (the level, the throttle of refusals) and when (its
/// ``ServerClock``); its sink decides only where the entry goes and how it looks there. The
/// daemon gives its logger a sink that writes standard error; tests give theirs one that
/// records. Called on the logger's thread only.
public protocol LogSink: AnyObject {
  /// Takes one entry that the logger's level let through.
  func write(_ entry: LogEntry)
}
