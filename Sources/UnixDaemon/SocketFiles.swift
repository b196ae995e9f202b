import Glibc
import UnixIO

/// File system steps shared by ``UnixListener`` and ``SocketLock``, with the ownership rules
/// of docs/security.md: the socket's directory must belong to the process's effective uid and
/// be writable by no one else (as tmux and ssh-agent require of theirs), and nothing in it is
/// followed through a symbolic link or removed unless it is a socket of that uid.
public enum SocketFiles {
  /// The write bits for group and others.
  static let sharedWriteBits: mode_t = 0o022

  /// Creates the missing directories above `path`, each with mode 0700, then checks that the
  /// socket's own directory is safe (see ``checkDirectory(_:)``).
  ///
  /// Existing directories above the socket's own are left as they are.
  ///
  /// - Throws: ``SystemError`` from `mkdir`, `chmod` or `stat`; ``UnixSocketError`` with code
  ///   ``UnixSocketError/Code/unsafeOwnership`` when the directory is not safe.
  public static func prepareDirectory(of path: String) throws {
    try createParentDirectories(of: path)
    try checkDirectory(directory(of: path), socketPath: path)
  }

  /// Creates the missing directories above `path`, each with mode 0700.
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

  /// The directory part of a socket path (`.` for a bare name).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let directory = String(path[..<slash])
    return directory.isEmpty ? "/" : directory
  }

  /// Checks that `directory` is a directory owned by the effective uid and not writable by
  /// group or others. The directory may be named through a symbolic link only when the link
  /// itself belongs to root or the effective uid (a link another user planted, in `/tmp` say,
  /// could later be pointed elsewhere); what it names is then checked.
  ///
  /// - Throws: ``UnixSocketError`` with code ``UnixSocketError/Code/unsafeOwnership`` naming
  ///   the directory and the reason, ``SystemError`` when `lstat` or `stat` fails.
  static func checkDirectory(_ directory: String, socketPath: String) throws {
    var link = stat()
    try retryingInterrupts("lstat", path: directory) { lstat(directory, &link) }
    var status = link
    if link.st_mode & S_IFMT == S_IFLNK {
      try retryingInterrupts("stat", path: directory) { stat(directory, &status) }
    }
    let reason: String
    if link.st_mode & S_IFMT == S_IFLNK, link.st_uid != 0, link.st_uid != geteuid() {
      reason = "is a symbolic link owned by uid \(link.st_uid)"
    } else if status.st_mode & S_IFMT != S_IFDIR {
      reason = "is not a directory"
    } else if status.st_uid != geteuid() {
      reason = "is owned by uid \(status.st_uid), not by this process's uid \(geteuid())"
    } else if status.st_mode & sharedWriteBits != 0 {
      reason = "is writable by group or others (mode \(octal(status.st_mode & 0o7777)))"
    } else {
      return
    }
    throw UnixSocketError(
      code: .unsafeOwnership, path: socketPath,
      message: "the socket directory \(directory) \(reason); refusing to use it "
        + "(it must belong to uid \(geteuid()) and be writable by it alone)")
  }

  /// Checks what `lstat` says of an existing file at the socket path: it must be a socket
  /// (never a symbolic link) owned by the effective uid before it may be removed.
  ///
  /// - Returns: True when a removable socket is there, false when nothing is.
  /// - Throws: ``UnixSocketError`` with code ``UnixSocketError/Code/notASocket`` or
  ///   ``UnixSocketError/Code/unsafeOwnership`` for anything else.
  static func checkRemovableSocket(at path: String) throws -> Bool {
    var status = stat()
    guard lstat(path, &status) == 0 else { return false }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      throw UnixSocketError(
        code: .notASocket, path: path,
        message: "\(path) exists and is not a socket; not removing it")
    }
    guard status.st_uid == geteuid() else {
      throw UnixSocketError(
        code: .unsafeOwnership, path: path,
        message: "\(path) is a socket of uid \(status.st_uid), not of this process's uid "
          + "\(geteuid()); not removing it")
    }
    return true
  }

  /// Checks the file a descriptor names: a regular file of the effective uid with one link.
  ///
  /// - Throws: ``UnixSocketError`` with code ``UnixSocketError/Code/unsafeOwnership`` naming
  ///   `path` and the reason; ``SystemError`` when `fstat` fails.
  static func checkOwnedRegularFile(descriptor: Int32, path: String, socketPath: String) throws {
    var status = stat()
    try retryingInterrupts("fstat", path: path) { fstat(descriptor, &status) }
    let reason: String
    if status.st_mode & S_IFMT != S_IFREG {
      reason = "is not a regular file"
    } else if status.st_uid != geteuid() {
      reason = "is owned by uid \(status.st_uid), not by this process's uid \(geteuid())"
    } else if status.st_nlink != 1 {
      reason = "has \(status.st_nlink) hard links"
    } else {
      return
    }
    throw UnixSocketError(
      code: .unsafeOwnership, path: socketPath,
      message: "the lock file \(path) \(reason); refusing it")
  }

  /// The device and inode of the file at `path`, or nil when there is none.
  public static func identity(of path: String) -> FileIdentity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return FileIdentity(device: status.st_dev, inode: status.st_ino, mode: status.st_mode)
  }

  /// A mode as four octal digits, as `ls` and `chmod` write it: `0777`.
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Which file a path named at some moment.
public struct FileIdentity: Equatable, Sendable {
  /// The device the file is on.
  public let device: dev_t
  /// The file's inode number.
  public let inode: ino_t
  /// The file's type and permission bits.
  public let mode: mode_t

  /// True for a socket file.
  public var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
}
