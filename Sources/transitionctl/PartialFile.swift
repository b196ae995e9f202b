import Glibc

/// An output file written whole or not at all: the work goes to a hidden file beside it
/// (`.NAME.partial-PID`), renamed over the final path by ``commit()`` or removed by
/// ``discard()``. Creating it up front is also the check that the output can be written.
struct PartialFile {
  /// The file being written.
  let path: String
  /// Where it ends up.
  let finalPath: String

  /// Creates the partial file beside `finalPath`.
  ///
  /// - Throws: ``ExitCode/cannotCreate`` naming `finalPath` and the system's reason.
  init(finalPath: String) throws(CommandFailure) {
    self.finalPath = finalPath
    let slash = finalPath.lastIndex(of: "/")
    let directory = slash.map { String(finalPath[...$0]) } ?? ""
    let name = slash.map { String(finalPath[finalPath.index(after: $0)...]) } ?? finalPath
    path = "\(directory).\(name).partial-\(getpid())"
    var info = stat()
    if stat(finalPath, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw CommandFailure(ExitCode.cannotCreate, "cannot write \(finalPath): it is a directory")
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CommandFailure(
        ExitCode.cannotCreate, "cannot write \(finalPath): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  /// Moves the finished file to its final path.
  ///
  /// - Throws: ``ExitCode/cannotCreate`` when the rename fails (the partial file is removed).
  func commit() throws(CommandFailure) {
    guard rename(path, finalPath) == 0 else {
      let reason = String(cString: strerror(errno))
      discard()
      throw CommandFailure(ExitCode.cannotCreate, "cannot write \(finalPath): \(reason)")
    }
  }

  /// Removes the partial file.
  func discard() { unlink(path) }
}
