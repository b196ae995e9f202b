/// What `make soak` tolerates (docs/security.md, "Soak"): how late a healthy subscriber's frame
/// may be, and how much each metric of the daemon may grow.
public enum SoakLimits {
  /// A healthy subscriber's frame arriving later than this after it was due fails the soak.
  public static let lateFrameSeconds = 0.020
  /// The warm-up when none is given: a fifth of the soak, at most a minute.
  public static func warmUpSeconds(forSoakOf seconds: Double) -> Double {
    min(60, seconds / 5)
  }
}

/// A figure of the daemon the soak samples every second, and how much it may grow from the
/// first tenth of the soak after the warm-up to the last (``GrowthJudgement``).
public enum SoakMetric: String, CaseIterable, Sendable {
  /// Resident memory (`VmRSS`), bytes.
  case residentBytes = "rss"
  /// Open descriptors (`/proc/PID/fd`).
  case descriptors
  /// Threads (`Threads` in `/proc/PID/status`).
  case threads
  /// Timers scheduled (`stats.timers.scheduled`).
  case timers
  /// Sessions active (`stats.sessions.active`).
  case sessions

  /// The growth allowed while the churn goes on. The load of the churn moves descriptors,
  /// timers and sessions by a few either way from one second to the next (each client is a
  /// descriptor, each session a completion timer), and a window's median takes most of that
  /// out; what is left is a leak's.
  public var slack: Double {
    switch self {
    case .residentBytes: 4 * 1024 * 1024
    case .descriptors: 6
    case .threads: 0
    case .timers: 8
    case .sessions: 8
    }
  }

  /// How much above its idle value (the daemon before the churn began) the metric may stay
  /// once the churn has stopped and every session and client has gone; nil when the idle
  /// value means nothing (memory, which the allocator keeps).
  public var idleSlack: Double? {
    switch self {
    case .residentBytes: nil
    case .descriptors, .threads, .timers, .sessions: 0
    }
  }
}
