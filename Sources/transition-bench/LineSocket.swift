import Foundation
import UnixIO

/// A blocking Unix-socket client for the benchmark: requests and replies as lines, and fast
/// readers of line streams that cost the benchmark's side as little as possible (one `read`
/// into a fixed buffer, newlines counted with `memchr`), so that the figures are the server's.
final class LineSocket: @unchecked Sendable {
  let descriptor: Int32
  private let capacity = 1 << 20
  private let buffer: UnsafeMutablePointer<UInt8>
  /// Bytes read past the last line returned by ``readLine()``.
  private var pending: [UInt8] = []

  init(path: String) throws {
    do {
      descriptor = try UnixSocket.connect(path: path)
    } catch {
      throw BenchError("cannot connect to \(path): \(error)")
    }
    buffer = .allocate(capacity: capacity)
  }

  /// Connects, retrying for up to `seconds` while the server is not listening yet.
  static func waitingFor(path: String, within seconds: Double) throws -> LineSocket {
    let deadline = Monotonic.now + seconds
    while true {
      do { return try LineSocket(path: path) } catch {
        if Monotonic.now > deadline { throw error }
        usleep(1_000)
      }
    }
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  func send(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    try bytes.withUnsafeBytes { try sendAll($0) }
  }

  /// Writes all of `bytes`, blocking.
  func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
    var sent = 0
    while sent < bytes.count {
      let count = write(descriptor, bytes.baseAddress! + sent, bytes.count - sent)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw BenchError("write failed: errno \(errno)") }
      sent += count
    }
  }

  /// Sends a request and returns the first line after it that carries `"ok"`.
  func request(_ line: String) throws -> String {
    try send(line)
    while true {
      let reply = try readLine()
      if reply.contains(#""ok":"#) { return reply }
    }
  }

  func readLine() throws -> String {
    while true {
      if let newline = pending.firstIndex(of: 10) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      let count = read(descriptor, buffer, capacity)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw BenchError("the server closed the connection") }
      pending.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
    }
  }

  /// Reads until a line holding `"event":"complete"` and counts the lines before it and all
  /// bytes (the same reader for transitiond, the socket's own limit and the Node.js script).
  func countUntilComplete() throws -> (lines: Int, bytes: Int) {
    let marker = Array(#""event":"complete""#.utf8)
    // Bytes left from `readLine` first, then the socket; the last marker-length bytes of the
    // previous read are kept in front so that a marker split across reads is found.
    let carry = marker.count
    let window = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + carry)
    defer { window.deallocate() }
    var kept = 0
    var lines = 0
    var bytes = 0
    var leftover = pending
    pending = []
    while true {
      var count = 0
      if !leftover.isEmpty {
        count = min(leftover.count, capacity)
        leftover.withUnsafeBufferPointer {
          (window + kept).update(from: $0.baseAddress!, count: count)
        }
        leftover.removeFirst(count)
      } else {
        count = read(descriptor, window + kept, capacity)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { throw BenchError("the server closed the stream") }
      }
      bytes += count
      if let end = Self.find(marker, in: window, count: kept + count) {
        // Count the lines before the one holding the marker.
        lines += Self.newlines(window + kept, max(0, end - (window + kept)))
        return (lines, bytes)
      }
      lines += Self.newlines(window + kept, count)
      let total = kept + count
      kept = min(carry, total)
      (window).update(from: window + total - kept, count: kept)
    }
  }

  /// The first occurrence of `needle` in `count` bytes at `start`.
  static func find(_ needle: [UInt8], in start: UnsafeMutablePointer<UInt8>, count: Int)
    -> UnsafeMutablePointer<UInt8>?
  {
    guard count >= needle.count else { return nil }
    var cursor = start
    let last = start + (count - needle.count)
    return needle.withUnsafeBytes { needleBytes in
      while cursor <= last {
        guard let hit = memchr(cursor, Int32(needleBytes[0]), last - cursor + 1) else { return nil }
        let candidate = hit.assumingMemoryBound(to: UInt8.self)
        if memcmp(candidate, needleBytes.baseAddress!, needle.count) == 0 { return candidate }
        cursor = candidate + 1
      }
      return nil
    }
  }

  /// The number of `\n` in `count` bytes at `start`.
  static func newlines(_ start: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    var lines = 0
    var cursor = UnsafeMutableRawPointer(start)
    var left = count
    while left > 0, let hit = memchr(cursor, 10, left) {
      lines += 1
      let next = hit + 1
      left -= next - cursor
      cursor = next
    }
    return lines
  }

  /// Reads whatever is available into the fixed buffer; calls `body` with the bytes and the
  /// monotonic time they arrived. Returns false at end of stream.
  func readChunk(_ body: (UnsafeBufferPointer<UInt8>, Double) -> Void) -> Bool {
    if !pending.isEmpty {
      let bytes = pending
      pending = []
      bytes.withUnsafeBufferPointer { body($0, Monotonic.now) }
      return true
    }
    while true {
      let count = read(descriptor, buffer, capacity)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      body(UnsafeBufferPointer(start: buffer, count: count), Monotonic.now)
      return true
    }
  }
}

/// `CLOCK_MONOTONIC` in seconds: the daemon's clock too, so times compare across processes.
enum Monotonic {
  static var now: Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension String {
  /// The scalar value of `"key":` in a one-line JSON object, without its quotes.
  func value(of key: String) -> String? {
    guard let range = range(of: "\"\(key)\":") else { return nil }
    let rest = self[range.upperBound...].drop { $0 == "\"" }
    return String(rest.prefix { $0 != "\"" && $0 != "," && $0 != "}" })
  }
}
