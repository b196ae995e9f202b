import FrameStreaming

/// Bounds how many lines of one kind reach the log: at most ``burst`` in any one-second
/// window; the lines held back are counted, and the count is written with the next line that
/// is let through (docs/security.md, "Logs").
///
/// A client can have the daemon refuse it as often as it likes (connect over its share, send
/// admin ops, overlong lines): without a bound, each refusal would be a log line, and the log
/// a way to fill a disk or hide other lines.
struct LogThrottle {
  /// The most lines written in one window.
  let burst: Int
  private var windowStart = -Double.infinity
  private var written = 0
  private var suppressed = 0

  init(burst: Int) {
    self.burst = max(burst, 1)
  }

  /// Whether a line at time `now` (seconds of the caller's clock: the logger's
  /// ``ServerClock``, never a clock of its own) is written, and, when it is, how many lines
  /// were held back since the last one written.
  mutating func admit(at now: Double) -> (write: Bool, suppressed: Int) {
    if now - windowStart >= 1 || now < windowStart {
      windowStart = now
      written = 0
    }
    guard written < burst else {
      suppressed += 1
      return (false, 0)
    }
    written += 1
    defer { suppressed = 0 }
    return (true, suppressed)
  }
}
