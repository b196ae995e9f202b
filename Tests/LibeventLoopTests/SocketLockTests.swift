import Glibc
import LibeventLoop
import Testing
import UnixDaemon
import UnixIO

@Suite struct SocketLockTests {
  @Test func refusesASecondHolder() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("t.sock")
    let first = try SocketLock(socketPath: path)
    defer { first.release() }
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .alreadyInUse)
    #expect(error.description == "another transitiond is running on \(path)")
    #expect(first.isHeld)
  }

  @Test func createsTheLockFileWithMode0600AndRemovesItOnRelease() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("sub/t.sock")
    let lock = try SocketLock(socketPath: path)
    #expect(lock.lockPath == path + ".lock")
    #expect(try #require(fileMode(lock.lockPath)) & 0o7777 == 0o600)
    #expect(try #require(fileMode(directory.file("sub"))) & 0o7777 == 0o700)
    lock.release()
    #expect(fileMode(lock.lockPath) == nil)
    #expect(!lock.isHeld)
    let again = try SocketLock(socketPath: path)
    #expect(again.isHeld)
    again.release()
  }

  @Test func replacesAStaleSocketFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("stale.sock")
    // A socket file left behind by a process that died without unlinking it.
    let descriptor = try UnixSocket.bind(path: path)
    close(descriptor)
    #expect(try #require(fileMode(path)) & S_IFMT == S_IFSOCK)

    let lock = try SocketLock(socketPath: path)
    defer { lock.release() }
    #expect(fileMode(path) == nil)
    let loop = try EventLoop()
    let listener = try UnixListener(loop: loop, path: path) { $0.close() }
    #expect(listener.isListening)
    listener.close()
  }

  @Test func leavesAFileThatIsNotASocketAlone() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("plain")
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
    close(descriptor)
    let error = try #require(throws: UnixSocketError.self) { try SocketLock(socketPath: path) }
    #expect(error.code == .notASocket)
    #expect(fileMode(path) != nil)
    #expect(fileMode(path + ".lock") == nil)
  }
}
