/// How long ``DaemonClient/reconnect(backoff:orReadable:)`` waits between attempts to reach a
/// daemon that went away: `initial` after the first failed attempt, then each wait
/// `multiplier` times the one before, never more than `maximum`; it gives up once `giveUpAfter`
/// has passed since the first attempt (never when nil).
///
/// The defaults (50 ms, doubling, at most 2 s, never giving up) find a daemon that restarts
/// within about 50 ms of its socket coming back, and cost a waiting client one connection
/// attempt every 2 s while the daemon stays down. There is no random jitter: a restarted daemon
/// accepts a burst of clients, and a client's schedule stays reproducible.
public struct ReconnectBackoff: Equatable, Sendable {
  /// The wait after the first failed attempt.
  public var initial: Duration
  /// How much each wait grows over the one before (at least 1).
  public var multiplier: Double
  /// The longest wait.
  public var maximum: Duration
  /// How long after the first attempt to give up; nil tries for ever.
  public var giveUpAfter: Duration?

  public init(
    initial: Duration = .milliseconds(50), multiplier: Double = 2,
    maximum: Duration = .seconds(2), giveUpAfter: Duration? = nil
  ) {
    self.initial = initial
    self.multiplier = max(1, multiplier)
    self.maximum = max(initial, maximum)
    self.giveUpAfter = giveUpAfter
  }

  /// The wait after the failed attempt `attempt` (0 for the first), or nil to give up now that
  /// `elapsed` has passed since the first attempt.
  public func delay(afterFailedAttempt attempt: Int, elapsed: Duration) -> Duration? {
    if let giveUpAfter, elapsed >= giveUpAfter { return nil }
    var delay = initial
    for _ in 0..<max(0, attempt) {
      delay = delay * multiplier
      if delay >= maximum { return clipped(maximum, elapsed: elapsed) }
    }
    return clipped(delay, elapsed: elapsed)
  }

  /// `delay`, shortened so that the last wait ends when the client gives up.
  private func clipped(_ delay: Duration, elapsed: Duration) -> Duration {
    guard let giveUpAfter else { return delay }
    return min(delay, giveUpAfter - elapsed)
  }
}
