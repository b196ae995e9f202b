import Foundation
import Glibc

/// An output file that replaces `path` only once it is worth keeping: it is written as a new
/// temporary file beside `path` (same directory, so the rename cannot cross file systems), and
/// ``commit()`` renames it into place. Dropped uncommitted, the temporary file is removed and
/// whatever was at `path` is untouched: a refused `play --out FILE` never empties a recording
/// that was there.
///
/// A `path` that names something other than a regular file (a device or a FIFO, such as
/// `/dev/stdout`) is opened and written as it is; a symbolic link is followed, and the file it
/// names is the one replaced.
final class ReplacementFile {
  /// Writes to the temporary file (or to the device).
  let writer: OutputWriter
  /// The file to replace, links resolved.
  private let destination: String
  /// The temporary file while uncommitted; nil once committed, or for a device.
  private var temporaryPath: String?

  /// Creates the temporary file beside `path` (mode 0644 less the umask).
  ///
  /// - Throws: ``ExitCode/cannotCreate`` naming `path` and the system's reason.
  init(replacing path: String) throws(CommandFailure) {
    func failure(_ reason: Int32) -> CommandFailure {
      CommandFailure(
        ExitCode.cannotCreate, "cannot write \(path): \(String(cString: strerror(reason)))")
    }
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      let fd = open(path, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw failure(errno) }
      writer = OutputWriter(owning: fd, name: path)
      destination = path
      temporaryPath = nil
      return
    }
    let target =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
        $0.hasPrefix("/")
          ? $0
          : ((path as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent($0)
      } ?? path
    let directory = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var template = Array(
      ((directory.isEmpty ? "." : directory) + "/.\(name).XXXXXX").utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw failure(errno) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o644 & ~mask)
    writer = OutputWriter(owning: fd, name: path)
    destination = target
    temporaryPath = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Renames the temporary file into place; later writes go on into it there.
  ///
  /// - Throws: ``ExitCode/cannotCreate`` when the rename fails (the temporary file is removed).
  func commit() throws(CommandFailure) {
    guard let temporaryPath else { return }
    self.temporaryPath = nil
    guard rename(temporaryPath, destination) == 0 else {
      let reason = errno
      unlink(temporaryPath)
      throw CommandFailure(
        ExitCode.cannotCreate, "cannot write \(destination): \(String(cString: strerror(reason)))")
    }
  }

  deinit {
    if let temporaryPath { unlink(temporaryPath) }
  }
}
