import Glibc
import UnixIO

/// An exclusive `flock` on `<socket>.lock` that makes one process the owner of a socket
/// path, as libwayland does.
///
/// Taking the lock proves no live process serves the path, so a socket file still there is
/// stale (left by a killed process) and is removed, letting ``UnixListener`` bind again. A
/// second instance fails to take the lock and must not start. The kernel drops the lock
/// when the process dies, however it dies.
///
/// ```swift
/// let lock = try SocketLock(socketPath: path)   // before UnixListener(path:)
/// defer { lock.release() }
/// ```
public final class SocketLock {
  /// The socket path the lock guards.
  public let socketPath: String
  /// The lock file: ``socketPath`` followed by `.lock`.
  public let lockPath: String

  private var descriptor: Int32

  /// Takes the lock for `socketPath`, then removes a stale socket file at that path.
  ///
  /// Missing parent directories are created with mode 0700, and the socket's directory must
  /// belong to the effective uid and be writable by it alone. The lock file is opened without
  /// following a symbolic link, created with mode 0600 when missing, checked (a regular file
  /// of the effective uid with one link) and kept open (close-on-exec) while held. A file at
  /// the socket path is removed only when it is a socket of the effective uid.
  ///
  /// - Parameters:
  ///   - socketPath: The socket path to own (at most 107 bytes).
  ///   - ownerName: The program named in the refusal message.
  /// - Throws: ``UnixSocketError`` with code ``UnixSocketError/Code/alreadyInUse``
  ///   ("another `ownerName` is running on `socketPath`") when another process holds the lock,
  ///   ``UnixSocketError/Code/notASocket`` when a non-socket file occupies the path,
  ///   ``UnixSocketError/Code/unsafeOwnership`` when the directory, the lock file or a socket
  ///   at the path is not trusted, and ``SystemError`` when a system call fails.
  public init(socketPath: String, ownerName: String = "transitiond") throws {
    _ = try UnixSocketAddress(socketPath: socketPath)
    self.socketPath = socketPath
    lockPath = socketPath + ".lock"
    try SocketFiles.prepareDirectory(of: socketPath)
    let lockPath = lockPath
    descriptor = try Self.openLockFile(lockPath, socketPath: socketPath)
    do {
      try SocketFiles.checkOwnedRegularFile(
        descriptor: descriptor, path: lockPath, socketPath: socketPath)
    } catch {
      Glibc.close(descriptor)
      descriptor = -1
      throw error
    }
    do {
      try retryingInterrupts("flock", path: lockPath) { flock(descriptor, LOCK_EX | LOCK_NB) }
    } catch {
      Glibc.close(descriptor)
      descriptor = -1
      guard error.errno == EWOULDBLOCK else { throw error }
      throw UnixSocketError(
        code: .alreadyInUse, path: socketPath,
        message: "another \(ownerName) is running on \(socketPath)")
    }
    do {
      if try SocketFiles.checkRemovableSocket(at: socketPath) {
        try retryingInterrupts("unlink", path: socketPath) { unlink(socketPath) }
      }
    } catch {
      release()
      throw error
    }
  }

  /// Opens (creating when missing) the lock file without following a symbolic link at it.
  ///
  /// - Throws: ``UnixSocketError`` with code ``UnixSocketError/Code/unsafeOwnership`` for a
  ///   symbolic link, ``SystemError`` when `open` fails otherwise.
  private static func openLockFile(_ lockPath: String, socketPath: String) throws -> Int32 {
    while true {
      let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
      if descriptor >= 0 { return descriptor }
      let code = Glibc.errno
      if code == EINTR { continue }
      if code == ELOOP {
        throw UnixSocketError(
          code: .unsafeOwnership, path: socketPath,
          message: "the lock file \(lockPath) is a symbolic link; refusing to follow it")
      }
      throw SystemError(errno: code, function: "open", path: lockPath)
    }
  }

  deinit {
    release()
  }

  /// True until ``release()``.
  public var isHeld: Bool { descriptor >= 0 }

  /// Removes the lock file and drops the lock. Safe to call twice.
  public func release() {
    guard descriptor >= 0 else { return }
    // Unlink while still holding the lock, so no other process locks the old file.
    unlink(lockPath)
    Glibc.close(descriptor)
    descriptor = -1
  }
}

@available(*, unavailable) extension SocketLock: Sendable {}
