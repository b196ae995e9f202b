import Glibc

/// `CLOCK_MONOTONIC` in seconds: the clock of the daemon's `start` and frame `t`, shared by
/// every process of the machine, so a subscriber can tell when a frame was due.
enum Monotonic {
  static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Sleeps `seconds` (nothing for a non-positive value).
  static func sleep(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(
      tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
