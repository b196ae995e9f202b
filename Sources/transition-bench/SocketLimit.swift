import Foundation
import UnixIO

/// The socket's own limit: a minimal sender that writes pre-encoded lines (the daemon's own
/// frames, so the same sizes) to a Unix stream socket as fast as the kernel takes them, read
/// by the same reader as the daemon. Nothing is evaluated or encoded: what is left is the cost
/// of the socket and of the reader.
final class SocketLimit: @unchecked Sendable {
  private let listener: TemporaryListener
  private let blob: [UInt8]
  private let linesPerBlob: Int
  private let complete = Array(
    #"{"event":"complete","finished":true,"session":"limit"}"#.utf8 + [10])

  /// Listens on a temporary socket; `lines` are sent in turn, over and over.
  init(lines: [[UInt8]]) throws {
    guard !lines.isEmpty else { throw BenchError("no frames to send") }
    blob = lines.flatMap { $0 }
    linesPerBlob = lines.count
    listener = try TemporaryListener(name: "limit", backlog: 8)
  }

  /// Sends `frames` lines to one reader; returns (lines read, bytes read, seconds).
  func run(frames: Int) throws -> (frames: Int, bytes: Int, seconds: Double) {
    let sender = Thread { [self] in
      guard let connection = listener.accept() else { return }
      defer { close(connection) }
      var left = frames
      blob.withUnsafeBytes { all in
        while left >= linesPerBlob {
          guard Self.writeAll(connection, all) else { return }
          left -= linesPerBlob
        }
        // The remaining lines: the first `left` lines of the blob.
        var end = 0
        var lines = 0
        while lines < left, let newline = all[end...].firstIndex(of: 10) {
          end = newline + 1
          lines += 1
        }
        guard Self.writeAll(connection, UnsafeRawBufferPointer(rebasing: all[..<end])) else {
          return
        }
      }
      complete.withUnsafeBytes { _ = Self.writeAll(connection, $0) }
    }
    let start = Monotonic.now
    sender.start()
    let reader = try LineSocket(path: listener.path)
    let read = try reader.countUntilComplete()
    return (read.lines, read.bytes, Monotonic.now - start)
  }

  private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    (try? UnixIO.writeAll(bytes, to: descriptor, isSocket: true)) != nil
  }
}
