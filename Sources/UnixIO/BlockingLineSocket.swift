import Glibc
import LineTransport

/// A blocking, connected AF_UNIX stream socket that writes bytes and reads `\n`-terminated
/// lines, or raw chunks: the one blocking line client of the project (the client library,
/// the benchmark, tests).
///
/// Writes go through ``writeAll(_:to:isSocket:)``; lines are cut by a ``LineFramer`` with no
/// bound on their length; reads wait with `poll(2)` until an optional deadline. Every call
/// retries `EINTR`, and a failure is a ``SystemError`` naming the call. End of stream, and a
/// connection the peer reset, read as the end (nil, false or empty). Raw reads (``readChunk(_:)``,
/// ``read(count:)``, ``readAvailable()``, ``readToEnd()``) first hand out what the framer
/// holds, so line and raw reads can follow each other.
///
/// The descriptor is closed by ``close()`` or when the socket is deinitialised. A socket may
/// move between threads but is used by one at a time.
public final class BlockingLineSocket: @unchecked Sendable {
  /// The socket's descriptor; -1 once closed.
  public private(set) var descriptor: Int32
  private var framer = LineFramer()
  private var reachedEnd = false
  private let chunk: UnsafeMutableRawBufferPointer

  /// The most bytes one read takes (the chunk buffer's size): 1 MiB, so that a fast reader
  /// of a frame stream costs few system calls.
  public static let readCapacity = 1 << 20

  /// Connects to the Unix socket at `path`.
  ///
  /// - Throws: the failing call (`sockaddr_un`, `socket`, `connect`); nothing is left open.
  public convenience init(path: String) throws(SystemError) {
    self.init(adopting: try UnixSocket.connect(path: path))
  }

  /// Takes ownership of a connected stream socket (one end of a `socketpair`, for example).
  public init(adopting descriptor: Int32) {
    self.descriptor = descriptor
    chunk = .allocate(byteCount: Self.readCapacity, alignment: 16)
  }

  deinit {
    close()
    chunk.deallocate()
  }

  /// Closes the socket; later calls fail with `EBADF`.
  public func close() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }

  /// Closes the sending direction: the peer sees end of stream.
  public func shutdownWrite() {
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }

  /// Writes all of `bytes`.
  /// - Throws: the failing `send` (`EPIPE` once the peer has gone).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    try writeAll(bytes, to: descriptor, isSocket: true)
  }

  /// Writes all of `bytes`.
  public func write(_ bytes: [UInt8]) throws(SystemError) {
    try writeAll(bytes, to: descriptor, isSocket: true)
  }

  /// Writes the UTF-8 bytes of `text` exactly as given (no `\n` added).
  public func write(_ text: String) throws(SystemError) {
    try write(Array(text.utf8))
  }

  /// Writes `line` and a `\n`.
  public func send(line: String) throws(SystemError) {
    try write(Array((line + "\n").utf8))
  }

  /// The next complete line, without its `\n`, waiting until `deadline` (forever when nil).
  ///
  /// - Returns: The line, or nil at end of stream.
  /// - Throws: `ETIMEDOUT` (function `poll`) past the deadline; the failing `poll` or `read`.
  public func readLine(deadline: ContinuousClock.Instant? = nil) throws(SystemError) -> [UInt8]? {
    switch try readLine(deadline: deadline, orReadable: []) {
    case .line(let line): line
    case .end, .otherReadable: nil
    }
  }

  /// What ``readLine(deadline:orReadable:)`` found first.
  public enum LineOrOther: Equatable, Sendable {
    /// A complete line, without its `\n`.
    case line([UInt8])
    /// The end of the stream.
    case end
    /// One of the other descriptors became readable while the socket had to be waited for.
    case otherReadable
  }

  /// The next complete line, or ``LineOrOther/otherReadable`` as soon as one of `others` is
  /// readable while the socket must be waited for. A line already buffered is returned
  /// without looking at `others`; when both are readable, the others win, so that a socket
  /// that is always readable (a virtual clock's frames) cannot starve them.
  ///
  /// - Throws: `ETIMEDOUT` (function `poll`) past the deadline; the failing `poll` or `read`.
  public func readLine(deadline: ContinuousClock.Instant?, orReadable others: [Int32])
    throws(SystemError) -> LineOrOther
  {
    while true {
      if case .line(let line) = framer.nextEvent() { return .line(line) }
      guard !reachedEnd else { return .end }
      let ready = try pollReadable([descriptor] + others, deadline: deadline)
      if ready.dropFirst().contains(true) { return .otherReadable }
      guard ready[0] else { throw SystemError(errno: ETIMEDOUT, function: "poll") }
      let count = try readOnce()
      guard count > 0 else { return .end }
      framer.append(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
    }
  }

  /// The next complete line when one has arrived, without waiting; nil when none has.
  public func readLineIfAvailable() throws(SystemError) -> [UInt8]? {
    if case .line(let line) = framer.nextEvent() { return line }
    let bytes = try receive(flags: Int32(MSG_DONTWAIT))
    framer.append(bytes)
    guard case .line(let line) = framer.nextEvent() else { return nil }
    return line
  }

  /// Calls `body` with the next bytes that arrive, as they come (the framer's first, if it
  /// holds any), waiting as long as it takes.
  ///
  /// - Returns: False at end of stream (`body` is not called).
  public func readChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
    if framer.bufferedBytes > 0 {
      try framer.takeBuffered().withUnsafeBytes { try body($0) }
      return true
    }
    let count = try readOnce()
    guard count > 0 else { return false }
    try body(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
    return true
  }

  /// Reads exactly `count` bytes, or fewer if the peer ends the stream first.
  public func read(count: Int) throws(SystemError) -> [UInt8] {
    var result = framer.takeBuffered()
    while result.count < count {
      let read = try readOnce()
      if read == 0 { break }
      result += UnsafeRawBufferPointer(rebasing: chunk[..<read])
    }
    if result.count > count {
      framer.append(Array(result[count...]))
      result.removeSubrange(count...)
    }
    return result
  }

  /// Reads until the peer ends the stream.
  public func readToEnd() throws(SystemError) -> [UInt8] {
    var result = framer.takeBuffered()
    while true {
      let read = try readOnce()
      if read == 0 { return result }
      result += UnsafeRawBufferPointer(rebasing: chunk[..<read])
    }
  }

  /// What is already in the socket (and the framer), without waiting; empty when nothing is.
  public func readAvailable() throws(SystemError) -> [UInt8] {
    framer.takeBuffered() + (try receive(flags: Int32(MSG_DONTWAIT)))
  }

  /// One `read` into the chunk buffer; 0 at end of stream (or a reset connection).
  private func readOnce() throws(SystemError) -> Int {
    guard !reachedEnd else { return 0 }
    while true {
      let count = Glibc.read(descriptor, chunk.baseAddress, chunk.count)
      if count > 0 { return count }
      let code = errno
      if count == 0 || code == ECONNRESET {
        reachedEnd = true
        return 0
      }
      if code != EINTR { throw SystemError(errno: code, function: "read") }
    }
  }

  /// One `recv` with `flags`; empty when nothing is there (`EAGAIN`) or at end of stream.
  private func receive(flags: Int32) throws(SystemError) -> [UInt8] {
    guard !reachedEnd else { return [] }
    while true {
      let count = recv(descriptor, chunk.baseAddress, chunk.count, flags)
      if count > 0 { return Array(UnsafeRawBufferPointer(rebasing: chunk[..<count])) }
      let code = errno
      if count == 0 || code == ECONNRESET {
        reachedEnd = true
        return []
      }
      if code == EAGAIN || code == EWOULDBLOCK { return [] }
      if code != EINTR { throw SystemError(errno: code, function: "recv") }
    }
  }
}
