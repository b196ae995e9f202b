import Glibc

/// Reads `CLOCK_MONOTONIC`, the clock every time of the daemon, its loop and its clients is
/// measured on (so that times compare across processes).
public enum MonotonicClock {
  /// The current monotonic time as a `timespec`.
  public static func timespecNow() -> timespec {
    var now = timespec()
    // CLOCK_MONOTONIC with a valid pointer cannot fail on Linux.
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now
  }

  /// The current monotonic time in seconds.
  public static func seconds() -> Double {
    let now = timespecNow()
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// The current monotonic time in whole microseconds (systemd's `MONOTONIC_USEC`).
  public static func microseconds() -> UInt64 {
    let now = timespecNow()
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
  }

  /// A `timeval` for a relative delay in seconds, clamped to [0, 10⁹] seconds; NaN is 0.
  public static func timeval(forDelay seconds: Double) -> Glibc.timeval {
    let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
    let wholeSeconds = clamped.rounded(.down)
    var microseconds = ((clamped - wholeSeconds) * 1e6).rounded(.up)
    var secondsPart = wholeSeconds
    if microseconds >= 1e6 {
      secondsPart += 1
      microseconds -= 1e6
    }
    return Glibc.timeval(tv_sec: Int(secondsPart), tv_usec: Int(microseconds))
  }
}
