import Foundation
import UnixIO

/// A Unix stream socket listening at a temporary path of this process's (the benchmark's own
/// peers: the socket's limit, the update's echo floor); closed and unlinked when released.
final class TemporaryListener {
  let path: String
  let descriptor: Int32

  /// Listens at `/tmp/transition-bench-<name>-<pid>.sock`, replacing a file left there.
  init(name: String, backlog: Int32) throws {
    path = "/tmp/transition-bench-\(name)-\(getpid()).sock"
    unlink(path)
    do {
      descriptor = try UnixSocket.bind(path: path)
    } catch {
      throw BenchError("cannot listen on \(path): \(error)")
    }
    guard listen(descriptor, backlog) == 0 else {
      close(descriptor)
      throw BenchError("cannot listen on \(path): errno \(errno)")
    }
  }

  deinit {
    close(descriptor)
    unlink(path)
  }

  /// The next connection, or nil when `accept` fails.
  func accept() -> Int32? {
    let connection = Glibc.accept(descriptor, nil, nil)
    return connection >= 0 ? connection : nil
  }
}
