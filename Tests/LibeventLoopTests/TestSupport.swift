import Foundation
import LibeventLoop
import Testing
import UnixIO

/// A fresh directory under /tmp (short, for AF_UNIX paths), removed with its contents on
/// deinit.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/evl-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw SystemError(errno: errno, function: "mkdtemp")
    }
    path = String(cString: created)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `name` inside this directory.
  func file(_ name: String) -> String { path + "/" + name }
}

/// The permission bits and type of the file at `path` (lstat), or nil when absent.
func fileMode(_ path: String) -> mode_t? {
  var status = stat()
  guard lstat(path, &status) == 0 else { return nil }
  return status.st_mode
}

extension EventLoop {
  /// Runs loop iterations until `condition` holds.
  ///
  /// A watchdog stops a test that would otherwise hang, and records an issue: it guards
  /// against hangs only; no test measures time with it.
  func pump(
    until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var timedOut = false
    let watchdog = try LoopTimer(loop: self) { timedOut = true }
    watchdog.schedule(after: 20)
    defer { watchdog.cancel() }
    while !condition() && !timedOut { try runOnce() }
    if timedOut {
      Issue.record("condition not reached before the watchdog", sourceLocation: sourceLocation)
    }
  }
}
