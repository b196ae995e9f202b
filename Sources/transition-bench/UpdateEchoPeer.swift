import Foundation
import UnixIO

/// The floor under an `update`'s round trip on this machine: a peer that answers each line
/// at once with a frame line of the daemon's own (its `progress` value replaced by the one
/// the line carries), from a thread that sleeps in `read` between lines as the daemon sleeps
/// in its loop. Its round trip is two wake-ups and the socket each way, with nothing parsed,
/// evaluated or encoded: what the daemon's figure is beside it is the daemon's own cost.
final class UpdateEchoPeer: @unchecked Sendable {
  private let listener: TemporaryListener
  /// The frame line up to and including `"progress":`, and from the byte after its value.
  private let head: [UInt8]
  private let tail: [UInt8]

  /// Listens on a temporary socket; `frame` is a frame line of the daemon's, `\n` included.
  init(frame: [UInt8]) throws {
    let key = Array(#""progress":"#.utf8)
    guard let keyStart = frame.firstRange(of: key)?.lowerBound else {
      throw BenchError("a frame without progress: \(String(decoding: frame, as: UTF8.self))")
    }
    let valueStart = keyStart + key.count
    let valueEnd = frame[valueStart...].firstIndex { $0 == UInt8(ascii: ",") } ?? frame.count
    head = Array(frame[..<valueStart])
    tail = Array(frame[valueEnd...])
    listener = try TemporaryListener(name: "echo", backlog: 1)
  }

  /// Where the peer listens.
  var path: String { listener.path }

  /// Starts the answering thread and returns a client connected to it; the thread ends when
  /// the client closes.
  func connect() throws -> LineSocket {
    let thread = Thread { [self] in serveOne() }
    thread.start()
    return try LineSocket(path: listener.path)
  }

  /// Accepts one client and answers it on the calling thread until it closes.
  func serveOne() {
    guard let connection = listener.accept() else { return }
    defer { close(connection) }
    answer(connection)
  }

  /// Answers each line read on `connection` with the frame showing the line's `progress`.
  private func answer(_ connection: Int32) {
    let key = Array(#""progress":"#.utf8)
    var pending: [UInt8] = []
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      pending += buffer[..<count]
      while let newline = pending.firstIndex(of: 10) {
        let line = Array(pending[..<newline])
        pending.removeFirst(newline + 1)
        guard let keyStart = line.firstRange(of: key)?.lowerBound else { continue }
        let value = line[(keyStart + key.count)...].prefix { $0 != UInt8(ascii: "}") }
        reply.removeAll(keepingCapacity: true)
        reply += head
        reply += value
        reply += tail
        do { try writeAll(reply, to: connection, isSocket: true) } catch { return }
      }
    }
  }
}
