import Foundation
import Glibc
import LibeventLoop
import Testing
import UnixDaemon

/// The socket's directory, its lock and a file at its path are trusted only when they belong
/// to this process's uid and no one else can write them (docs/security.md). The tests that
/// hand a file to another user need root; they skip themselves otherwise.
@Suite struct SocketOwnershipTests {
  static let isRoot = getuid() == 0
  static let otherUID: uid_t = 65_534

  /// Binds (and closes) a socket at `path`, leaving a stale socket file.
  static func leaveSocketFile(at path: String) {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    close(descriptor)
  }

  @Test func aSymlinkPlantedAtTheLockPathIsNotFollowed() throws {
    let directory = try TemporaryDirectory()
    let victim = directory.file("victim")
    let path = directory.file("t.sock")
    #expect(symlink(victim, path + ".lock") == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .unsafeOwnership)
    #expect(error.message.contains("\(path).lock is a symbolic link"))
    #expect(fileMode(victim) == nil)
  }

  @Test func aLockPathThatIsNotARegularFileIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("t.sock")
    #expect(mkfifo(path + ".lock", 0o600) == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .unsafeOwnership)
    #expect(error.message == "the lock file \(path).lock is not a regular file; refusing it")
  }

  @Test func aHardLinkedLockFileIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("t.sock")
    let other = directory.file("other")
    close(open(other, O_CREAT | O_WRONLY, 0o600))
    #expect(link(other, path + ".lock") == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.message.contains("has 2 hard links"))
  }

  @Test func aWorldWritableSocketDirectoryIsRefused() throws {
    let directory = try TemporaryDirectory()
    let shared = directory.file("shared")
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o1777) == 0)
    let path = shared + "/t.sock"
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .unsafeOwnership)
    #expect(
      error.message
        == "the socket directory \(shared) is writable by group or others (mode 1777); refusing "
        + "to use it (it must belong to uid \(geteuid()) and be writable by it alone)")
    #expect(fileMode(path + ".lock") == nil)
    let loop = try EventLoop()
    #expect(throws: UnixSocketError.self) { try UnixListener(loop: loop, path: path) { _ in } }
    #expect(fileMode(path) == nil)
  }

  @Test func aGroupWritableSocketDirectoryIsRefused() throws {
    let directory = try TemporaryDirectory()
    let shared = directory.file("group")
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o770) == 0)
    #expect(throws: UnixSocketError.self) { try SocketLock(socketPath: shared + "/t.sock") }
  }

  @Test func aMissingDirectoryIsCreatedPrivate() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("a/b/t.sock")
    let lock = try SocketLock(socketPath: path)
    defer { lock.release() }
    #expect(try #require(fileMode(directory.file("a"))) & 0o7777 == 0o700)
    #expect(try #require(fileMode(directory.file("a/b"))) & 0o7777 == 0o700)
  }

  @Test(.enabled(if: isRoot, "needs root to chown a directory to another uid"))
  func aSocketDirectoryOwnedByAnotherUserIsRefused() throws {
    let directory = try TemporaryDirectory()
    let foreign = directory.file("foreign")
    #expect(mkdir(foreign, 0o700) == 0)
    #expect(chown(foreign, Self.otherUID, Self.otherUID) == 0)
    let error = try #require(throws: UnixSocketError.self) {
      try SocketLock(socketPath: foreign + "/t.sock")
    }
    #expect(error.code == .unsafeOwnership)
    #expect(error.message.contains("is owned by uid 65534, not by this process's uid 0"))
    #expect(fileMode(foreign + "/t.sock.lock") == nil)
  }

  @Test(.enabled(if: isRoot, "needs root to chown a socket to another uid"))
  func aSocketOfAnotherUserIsNotRemoved() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("t.sock")
    Self.leaveSocketFile(at: path)
    #expect(lchown(path, Self.otherUID, Self.otherUID) == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .unsafeOwnership)
    #expect(
      error.message
        == "\(path) is a socket of uid 65534, not of this process's uid 0; not removing it")
    #expect(try #require(fileMode(path)) & S_IFMT == S_IFSOCK)
    #expect(fileMode(path + ".lock") == nil)
  }

  @Test(.enabled(if: isRoot, "needs root to chown a lock file to another uid"))
  func aLockFileOfAnotherUserIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("t.sock")
    close(open(path + ".lock", O_CREAT | O_WRONLY, 0o600))
    #expect(chown(path + ".lock", Self.otherUID, Self.otherUID) == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.message.contains("is owned by uid 65534"))
  }

  @Test func aSymlinkAtTheSocketPathIsLeftAlone() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("target.sock")
    Self.leaveSocketFile(at: target)
    let path = directory.file("t.sock")
    #expect(symlink(target, path) == 0)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .notASocket)
    #expect(try #require(fileMode(path)) & S_IFMT == S_IFLNK)
    #expect(try #require(fileMode(target)) & S_IFMT == S_IFSOCK)
  }

  @Test(.enabled(if: isRoot, "needs root to make a symbolic link of another uid"))
  func aSocketDirectoryNamedThroughAnotherUsersSymlinkIsRefused() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("target")
    #expect(mkdir(target, 0o700) == 0)
    let planted = directory.file("planted")
    #expect(symlink(target, planted) == 0)
    #expect(lchown(planted, Self.otherUID, Self.otherUID) == 0)
    let error = try #require(throws: UnixSocketError.self) {
      try SocketLock(socketPath: planted + "/t.sock")
    }
    #expect(error.message.contains("\(planted) is a symbolic link owned by uid 65534"))
    #expect(fileMode(target + "/t.sock.lock") == nil)
  }

  @Test func aSocketDirectoryNamedThroughOurOwnSymlinkIsUsed() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("target")
    #expect(mkdir(target, 0o700) == 0)
    #expect(symlink(target, directory.file("link")) == 0)
    let lock = try SocketLock(socketPath: directory.file("link/t.sock"))
    defer { lock.release() }
    #expect(fileMode(target + "/t.sock.lock") != nil)
  }
}
