import Glibc
import UnixIO

/// The client library's connection to the daemon: the shared ``BlockingLineSocket``, with its
/// failures told as ``ClientError``s.
///
/// The descriptor is closed when the connection is deinitialised or ``close()`` is called.
final class SocketConnection {
  private let socket: BlockingLineSocket
  private let path: String

  /// Connects to the Unix socket at `path`.
  ///
  /// - Throws: ``ClientError/Code/connectFailed`` naming `path` and the system's reason.
  init(path: String) throws(ClientError) {
    self.path = path
    do {
      socket = try BlockingLineSocket(path: path)
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

  /// Closes the socket; later reads and writes fail with ``ClientError/Code/closed``.
  func close() {
    socket.close()
  }

  /// Writes all of `bytes`.
  ///
  /// - Throws: ``ClientError/Code/closed`` when the daemon has gone or the socket is closed.
  func write(_ bytes: [UInt8]) throws(ClientError) {
    guard socket.descriptor >= 0 else { throw ClientError(.closed, "the connection is closed") }
    do {
      try socket.write(bytes)
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
    guard socket.descriptor >= 0 else {
      throw ClientError(.closed, "the daemon closed the connection")
    }
    let read: BlockingLineSocket.LineOrOther
    do {
      read = try socket.readLine(deadline: deadline, orReadable: others)
    } catch {
      if error.errno == ETIMEDOUT, error.function == "poll" {
        throw ClientError(.timeout, "no answer from the daemon in time")
      }
      if error.function == "poll" {
        throw ClientError(.closed, "poll failed: \(error.reason)", errno: error.errno)
      }
      throw ClientError(
        .closed, "reading from \(path) failed: \(error.reason)", errno: error.errno)
    }
    switch read {
    case .line(let line): return line
    case .otherReadable: return nil
    case .end: throw ClientError(.closed, "the daemon closed the connection")
    }
  }

  /// Waits up to `timeout` for one of `descriptors` to become readable.
  ///
  /// - Returns: whether one did (false after the whole timeout, also for no descriptors).
  static func waitForAny(of descriptors: [Int32], timeout: Duration) -> Bool {
    let ready = try? pollReadable(descriptors, deadline: ContinuousClock.now + timeout)
    return ready?.contains(true) ?? false
  }
}
