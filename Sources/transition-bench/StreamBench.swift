import Foundation
import UnixIO

/// End-to-end streaming through a real `transitiond`: frames per second a subscriber reads
/// with `clock: "virtual"` (as fast as it reads), from `begin` to `complete`.
///
/// The daemon is started from the benchmark's own directory on a temporary socket, with the
/// plugins built beside it; readers count lines on raw sockets, so the figure is the daemon's
/// (evaluate, encode, write) and the socket's, not a client library's JSON decoding.
struct StreamBench {
  let binDirectory: URL
  let socketPath: String
  let daemon: Process

  /// Starts `transitiond` and waits for its socket.
  init() throws {
    binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    let directory = "/tmp/transition-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    socketPath = directory + "/transitiond.sock"
    daemon = Process()
    daemon.executableURL = binDirectory.appendingPathComponent("transitiond")
    daemon.arguments = [
      "--socket", socketPath, "--plugin-path", binDirectory.path, "--log-level", "warn",
    ]
    try daemon.run()
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: socketPath) {
      usleep(10_000)
    }
    guard FileManager.default.fileExists(atPath: socketPath) else {
      throw BenchError("transitiond did not open \(socketPath)")
    }
  }

  func stop() {
    daemon.terminate()
    daemon.waitUntilExit()
    try? FileManager.default.removeItem(atPath: (socketPath as NSString).deletingLastPathComponent)
  }

  /// Begins one album-flip push lasting `seconds` and reads it at `fps` with `readers`
  /// subscribers at once; returns (frames read in all, bytes read in all, layers a frame).
  func run(seconds: Double, fps: Int, readers: Int) throws -> (frames: Int, bytes: Int, layers: Int)
  {
    let control = try LineSocket(path: socketPath)
    let begin = try control.request(
      #"{"op":"begin","interactive":true,"duration":\#(seconds),"context":\#(Self.context)}"#)
    guard let session = begin.value(of: "session"),
      let layers = begin.value(of: "layers").flatMap(Int.init)
    else { throw BenchError("begin failed: \(begin)") }
    let totals = Totals()
    let sockets = try (0..<readers).map { _ in try LineSocket(path: socketPath) }
    DispatchQueue.concurrentPerform(iterations: readers) { index in
      if let read = try? sockets[index].readVirtualStream(session: session, fps: fps) {
        totals.add(frames: read.frames, bytes: read.bytes)
      }
    }
    _ = try control.request(#"{"op":"end","session":"\#(session)"}"#)
    return (totals.frames, totals.bytes, layers)
  }

  /// An album-flip push on a phone-sized container: 8 covers, 24 photo cells.
  static let context: String = {
    var covers: [String] = []
    for index in 0..<8 {
      let x = 16 + (index % 2) * 187
      let y = 107 + (index / 2) * 230
      covers.append(
        #"{"id":"album-\#(index)","frame":[\#(x),\#(y),171,171],"content":{"image":"album-\#(index).jpg"}}"#
      )
    }
    var cells: [String] = []
    for index in 0..<24 {
      let x = (index % 3) * 131
      let y = 91 + (index / 3) * 131
      cells.append(
        #"{"id":"photo-\#(index)","frame":[\#(x),\#(y),128,128],"content":{"image":"photo-\#(index).jpg"}}"#
      )
    }
    return #"{"operation":"push","container":[390,844],"selected":"album-2","#
      + ##""from":{"background":"#ffffffff","layers":[\##(covers.joined(separator: ","))]},"##
      + ##""to":{"background":"#ffffffff","layers":[\##(cells.joined(separator: ","))]}}"##
  }()
}

/// Frames and bytes read by concurrent readers.
final class Totals: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var frames = 0
  private(set) var bytes = 0

  func add(frames: Int, bytes: Int) {
    lock.lock()
    defer { lock.unlock() }
    self.frames += frames
    self.bytes += bytes
  }
}

/// A blocking Unix-socket line reader for the benchmark.
final class LineSocket: @unchecked Sendable {
  private let descriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)
  private var pending: [UInt8] = []

  init(path: String) throws {
    descriptor = try UnixSocket.connect(path: path)
  }

  deinit { close(descriptor) }

  func send(_ line: String) throws {
    try writeAll(Array((line + "\n").utf8), to: descriptor, isSocket: true)
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
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { throw BenchError("the daemon closed the connection") }
      pending.append(contentsOf: buffer[..<count])
    }
  }

  /// Subscribes with the virtual clock and counts frame lines and bytes until `complete`.
  func readVirtualStream(session: String, fps: Int) throws -> (frames: Int, bytes: Int) {
    _ = try request(#"{"op":"subscribe","session":"\#(session)","fps":\#(fps),"clock":"virtual"}"#)
    let complete = Array(#""event":"complete""#.utf8)
    var lines = pending.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    var bytes = pending.count
    // The window searched for `complete`: this read plus the end of the previous one, so an
    // event split across two reads is still found.
    var window = pending
    while !Self.contains(window, complete) {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { throw BenchError("the daemon closed the stream") }
      bytes += count
      lines += buffer[..<count].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
      window = Array(window.suffix(complete.count)) + buffer[..<count]
    }
    return (lines - 1, bytes)
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count)
    where haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle {
      return true
    }
    return false
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
