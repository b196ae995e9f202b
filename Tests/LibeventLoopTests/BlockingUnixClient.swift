import Glibc
import LibeventLoop
import UnixIO

/// A blocking AF_UNIX stream client for tests: the other end of a ``Connection``.
///
/// Reads that block must only be made when the bytes are known to be in the socket (the
/// loop runs on the same thread), so tests flush the server side first.
final class BlockingUnixClient {
  private(set) var descriptor: Int32

  /// Connects to the socket at `path`.
  init(connectingTo path: String) throws {
    descriptor = try UnixSocket.connect(path: path)
  }

  /// Wraps one end of a socket pair.
  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close() }

  /// Writes all of `bytes`.
  func write(_ bytes: [UInt8]) throws {
    try writeAll(bytes, to: descriptor, isSocket: true)
  }

  /// Writes the UTF-8 bytes of `text`.
  func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// Reads exactly `count` bytes, or fewer if the peer closes first.
  func read(count: Int) throws -> [UInt8] {
    var result: [UInt8] = []
    while result.count < count {
      let chunk = try receive(maximum: count - result.count, flags: 0)
      if chunk.isEmpty { break }
      result += chunk
    }
    return result
  }

  /// Reads until the peer closes.
  func readToEnd() throws -> [UInt8] {
    var result: [UInt8] = []
    while true {
      let chunk = try receive(maximum: 65536, flags: 0)
      if chunk.isEmpty { return result }
      result += chunk
    }
  }

  /// Reads what is already in the socket without blocking (empty when nothing is).
  func readAvailable() throws -> [UInt8] {
    do {
      return try receive(maximum: 1 << 20, flags: Int32(MSG_DONTWAIT))
    } catch let error as SystemError where error.errno == EAGAIN {
      return []
    }
  }

  /// Closes the sending direction: the server sees end of stream.
  func shutdownWrite() {
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }

  /// Closes the socket.
  func close() {
    if descriptor >= 0 {
      Glibc.close(descriptor)
      descriptor = -1
    }
  }

  private func receive(maximum: Int, flags: Int32) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: maximum)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, flags) }
      if count >= 0 { return Array(buffer[..<count]) }
      if errno != EINTR { throw SystemError(errno: errno, function: "recv") }
    }
  }
}

/// A connected AF_UNIX stream socket pair: a ``Connection`` on one end, a client on the other.
func makeConnectedPair(loop: EventLoop) throws -> (Connection, BlockingUnixClient) {
  var descriptors: [Int32] = [-1, -1]
  let result = socketpair(
    AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &descriptors)
  guard result == 0 else { throw SystemError(errno: errno, function: "socketpair") }
  let client = BlockingUnixClient(descriptor: descriptors[1])
  let connection = try Connection(loop: loop, adopting: descriptors[0])
  return (connection, client)
}
