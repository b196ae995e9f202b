import Foundation
import UnixIO

/// The benchmark's client is the shared blocking line client; these are the benchmark's own
/// uses of it: requests and replies as text, and fast readers of line streams that cost the
/// benchmark's side as little as possible (raw chunks, newlines counted with `memchr`), so
/// that the figures are the server's.
typealias LineSocket = BlockingLineSocket

extension BlockingLineSocket {
  /// Connects, retrying for up to `seconds` while the server is not listening yet.
  static func waitingFor(path: String, within seconds: Double) throws -> LineSocket {
    let deadline = Monotonic.now + seconds
    while true {
      do { return try LineSocket(path: path) } catch {
        if Monotonic.now > deadline { throw BenchError("cannot connect to \(path): \(error)") }
        usleep(1_000)
      }
    }
  }

  func send(_ line: String) throws {
    try send(line: line)
  }

  /// Writes all of `bytes`, blocking.
  func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
    try write(bytes)
  }

  /// Sends a request and returns the first line after it that carries `"ok"`.
  func request(_ line: String) throws -> String {
    try send(line)
    while true {
      let reply = try readText()
      if reply.contains(#""ok":"#) { return reply }
    }
  }

  /// The next line as text.
  func readText() throws -> String {
    guard let line = try readLine() else { throw BenchError("the server closed the connection") }
    return String(decoding: line, as: UTF8.self)
  }

  /// Reads until a line holding `"event":"complete"` and counts the lines before it and all
  /// bytes (the same reader for transitiond, the socket's own limit and the Node.js script).
  func countUntilComplete() throws -> (lines: Int, bytes: Int) {
    let marker = Array(#""event":"complete""#.utf8)
    // The last marker-length bytes of the previous chunk are kept in front so that a marker
    // split across reads is found.
    let carry = marker.count
    let capacity = Self.readCapacity
    let window = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + carry)
    defer { window.deallocate() }
    var kept = 0
    var lines = 0
    var bytes = 0
    var result: (lines: Int, bytes: Int)?
    while result == nil {
      let more = try readChunk { chunk throws in
        var offset = 0
        while result == nil, offset < chunk.count {
          let count = min(chunk.count - offset, capacity)
          UnsafeMutableRawPointer(window + kept).copyMemory(
            from: chunk.baseAddress! + offset, byteCount: count)
          offset += count
          bytes += count
          if let end = Self.find(marker, in: window, count: kept + count) {
            // Count the lines before the one holding the marker.
            lines += Self.newlines(window + kept, max(0, end - (window + kept)))
            result = (lines, bytes)
            return
          }
          lines += Self.newlines(window + kept, count)
          let total = kept + count
          kept = min(carry, total)
          (window).update(from: window + total - kept, count: kept)
        }
      }
      guard more else { throw BenchError("the server closed the stream") }
    }
    return result!
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

  /// Reads whatever is available; calls `body` with the bytes and the monotonic time they
  /// arrived. Returns false at end of stream (or on a read error).
  func readChunk(_ body: (UnsafeBufferPointer<UInt8>, Double) -> Void) -> Bool {
    (try? readChunk { (chunk: UnsafeRawBufferPointer) in
      body(chunk.assumingMemoryBound(to: UInt8.self), Monotonic.now)
    }) ?? false
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
