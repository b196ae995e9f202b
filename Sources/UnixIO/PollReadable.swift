import Glibc

/// Which descriptors `poll(2)` found readable, waiting until `deadline` (forever when nil).
///
/// The one wait on several descriptors: ``BlockingLineSocket`` waits with it for its socket and
/// the descriptors a caller also watches (a Ctrl-C pipe, an inotify descriptor).
///
/// - Returns: For each descriptor of `descriptors`, in order, whether it is readable (or at
///   end of file, or failed); all false once `deadline` has passed.
/// - Throws: The failing `poll`.
public func pollReadable(_ descriptors: [Int32], deadline: ContinuousClock.Instant?)
  throws(SystemError) -> [Bool]
{
  var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  while true {
    var timeoutMilliseconds: Int32 = -1
    if let deadline {
      let remaining = deadline - ContinuousClock.now
      if remaining <= .zero { return descriptors.map { _ in false } }
      let (seconds, attoseconds) = remaining.components
      let milliseconds =
        seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
      timeoutMilliseconds = Int32(clamping: max(1, milliseconds))
    }
    let ready = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
    if ready > 0 { return entries.map { $0.revents != 0 } }
    if ready < 0 {
      let code = errno
      if code != EINTR { throw SystemError(errno: code, function: "poll") }
    }
    // Nothing yet: check the deadline again.
  }
}
