import Glibc

/// File system steps shared by ``UnixListener`` and ``SocketLock``.
enum SocketFiles {
  /// Creates the missing directories above `path`, each with mode 0700.
  ///
  /// Existing directories are left as they are.
  ///
  /// - Throws: ``SystemError`` from `mkdir` or `chmod`.
  static func createParentDirectories(of path: String) throws(SystemError) {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    var prefix = ""
    for (index, component) in components.enumerated() {
      prefix += (index == 0 ? "" : "/") + component
      if component.isEmpty || component == "." || component == ".." { continue }
      let directory = prefix
      if mkdir(directory, 0o700) == 0 {
        // mkdir applies the umask; make the mode exactly 0700.
        try retryingInterrupts("chmod", path: directory) { chmod(directory, 0o700) }
        continue
      }
      let code = Glibc.errno
      if code != EEXIST { throw SystemError(errno: code, function: "mkdir", path: directory) }
    }
  }

  /// The device and inode of the file at `path`, or nil when there is none.
  static func identity(of path: String) -> FileIdentity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return FileIdentity(device: status.st_dev, inode: status.st_ino, mode: status.st_mode)
  }
}

/// Which file a path named at some moment.
struct FileIdentity: Equatable {
  let device: dev_t
  let inode: ino_t
  let mode: mode_t

  /// True for a socket file.
  var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
}
