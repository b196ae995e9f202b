import Glibc

/// Waiting with poll(2) for one of a few descriptors to become readable (Ctrl-C's pipe, a file
/// watcher), retrying `EINTR`.
enum DescriptorPoll {
  /// The first of `descriptors` that is readable within `timeout` (for ever when nil), or nil
  /// when none became readable in time.
  static func firstReadable(_ descriptors: [Int32], within timeout: Duration?) -> Int32? {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let remaining = deadline - ContinuousClock.now
        let (seconds, attoseconds) = remaining.components
        milliseconds = Int32(
          clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      }
      let ready = poll(&entries, nfds_t(entries.count), milliseconds)
      if ready > 0 { return entries.first { $0.revents != 0 }?.fd }
      if ready == 0 || errno != EINTR { return nil }
    }
  }
}
