import Glibc
import UnixIO

/// A blocking, connected AF_UNIX stream socket that reads whole lines.
///
/// Every system call retries on `EINTR`; reads wait with `poll(2)` so callers can bound them.
/// The descriptor is closed when the connection is deinitialised or ``close()`` is called.
final class SocketConnection {
  private var descriptor: Int32
  private var buffer = LineBuffer()
  private var reachedEnd = false
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  private let path: String

  /// Connects to the Unix socket at `path`.
  ///
  /// - Throws: ``ClientError/Code/connectFailed`` naming `path` and the system's reason.
  init(path: String) throws(ClientError) {
    self.path = path
    do {
      descriptor = try UnixSocket.connect(path: path)
    } catch {
      let reason =
        switch (error.function, error.errno) {
        case ("sockaddr_un", ENAMETOOLONG):
          "the socket path is longer than \(UnixSocketAddress.maximumPathLength) bytes"
        case ("sockaddr_un", _): "the socket path is empty or contains NUL"
        default: error.reason
        }
      throw .connectFailed(path: path, reason: reason, errno: error.errno)
    }
  }

  deinit { close() }

  /// Closes the socket; later reads and writes fail with ``ClientError/Code/closed``.
  func close() {
    if descriptor >= 0 {
      _ = Glibc.close(descriptor)
      descriptor = -1
    }
  }

  /// Writes all of `bytes`.
  ///
  /// - Throws: ``ClientError/Code/closed`` when the daemon has gone or the socket is closed.
  func write(_ bytes: [UInt8]) throws(ClientError) {
    guard descriptor >= 0 else { throw ClientError(.closed, "the connection is closed") }
    do {
      try writeAll(bytes, to: descriptor, isSocket: true)
    } catch {
      throw ClientError(.closed, "writing to \(path) failed: \(error.reason)", errno: error.errno)
    }
  }

  /// Reads the next complete line, waiting until `deadline` (forever when `nil`).
  ///
  /// - Returns: the line without its `\n`.
  /// - Throws: ``ClientError/Code/timeout`` past the deadline, ``ClientError/Code/closed`` at
  ///   end of file or on a read error.
  func readLine(deadline: ContinuousClock.Instant?) throws(ClientError) -> [UInt8] {
    // With nothing else to watch, only a line ends the wait.
    try readLine(deadline: deadline, orReadable: [])!
  }

  /// Reads the next complete line, or returns nil as soon as one of `others` is readable
  /// when the socket must be waited for (a line already buffered is returned without looking
  /// at them; when both are readable, the others win).
  ///
  /// - Throws: as ``readLine(deadline:)``.
  func readLine(deadline: ContinuousClock.Instant?, orReadable others: [Int32])
    throws(ClientError) -> [UInt8]?
  {
    while true {
      if let line = buffer.nextLine() { return line }
      guard descriptor >= 0, !reachedEnd else {
        throw ClientError(.closed, "the daemon closed the connection")
      }
      guard try waitReadable(deadline: deadline, orReadable: others) else { return nil }
      try fill()
    }
  }

  /// Waits until the socket is readable (true) or one of `others` is (false, also when both
  /// are).
  private func waitReadable(deadline: ContinuousClock.Instant?, orReadable others: [Int32])
    throws(ClientError) -> Bool
  {
    while true {
      var timeoutMilliseconds: Int32 = -1
      if let deadline {
        let remaining = deadline - ContinuousClock.now
        if remaining <= .zero { throw ClientError(.timeout, "no answer from the daemon in time") }
        let (seconds, attoseconds) = remaining.components
        let milliseconds =
          seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        timeoutMilliseconds = Int32(clamping: max(1, milliseconds))
      }
      var entries = ([descriptor] + others).map {
        pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
      }
      let ready = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
      // The others first, so that a socket that is always readable (a virtual clock's
      // frames) cannot starve them.
      if ready > 0 { return entries.dropFirst().allSatisfy { $0.revents == 0 } }
      if ready < 0 {
        let code = errno
        if code == EINTR { continue }
        throw ClientError(.closed, "poll failed: \(Self.describe(code))", errno: code)
      }
      // ready == 0: loop to re-check the deadline.
    }
  }

  private func fill() throws(ClientError) {
    while true {
      let count = chunk.withUnsafeMutableBytes { raw in
        read(descriptor, raw.baseAddress!, raw.count)
      }
      if count > 0 {
        chunk.withUnsafeBytes { raw in
          buffer.append(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
        return
      }
      if count == 0 {
        reachedEnd = true
        return
      }
      let code = errno
      if code == EINTR { continue }
      if code == ECONNRESET {
        reachedEnd = true
        return
      }
      throw ClientError(.closed, "reading from \(path) failed: \(Self.describe(code))", errno: code)
    }
  }

  /// Waits up to `timeout` for one of `descriptors` to become readable.
  ///
  /// - Returns: whether one did (false after the whole timeout, also for no descriptors).
  static func waitForAny(of descriptors: [Int32], timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else { return false }
      let (seconds, attoseconds) = remaining.components
      let milliseconds =
        seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
      let ready = poll(&entries, nfds_t(entries.count), Int32(clamping: max(1, milliseconds)))
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return false }
    }
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
