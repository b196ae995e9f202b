import Foundation
import Glibc

/// A private temporary directory for one command's intermediate files (a scene's recording,
/// the helpers' logs), removed by ``remove()``.
struct WorkDirectory {
  let path: String

  /// - Throws: ``ExitCode/cannotCreate`` when it cannot be made.
  init() throws(CommandFailure) {
    var template = Array("/tmp/transitionctl-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw CommandFailure(
        ExitCode.cannotCreate,
        "cannot make a temporary directory: \(String(cString: strerror(errno)))")
    }
    path = String(cString: created)
  }

  /// The path of `name` inside.
  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
