import Glibc
import LibeventLoop
import Testing
import UnixDaemon
import UnixIO

@Suite struct UnixListenerTests {
  @Test func acceptsOnASocketFileWithTheDefaultMode() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("d.sock")
    let loop = try EventLoop()
    var accepted: [Connection] = []
    let listener = try UnixListener(loop: loop, path: path) { accepted.append($0) }
    defer { listener.close() }
    let mode = try #require(fileMode(path))
    #expect(mode & S_IFMT == S_IFSOCK)
    #expect(mode & 0o7777 == 0o600)

    let client = try BlockingLineSocket(path: path)
    try loop.pump(until: { accepted.count == 1 })
    #expect(accepted.first?.isOpen == true)
    client.close()
    for connection in accepted { connection.close() }
  }

  @Test func appliesTheRequestedMode() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("m.sock")
    let loop = try EventLoop()
    let listener = try UnixListener(loop: loop, path: path, mode: 0o660) { $0.close() }
    defer { listener.close() }
    #expect(try #require(fileMode(path)) & 0o7777 == 0o660)
  }

  @Test func createsMissingParentDirectoriesWithMode0700() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("a/b/s.sock")
    let loop = try EventLoop()
    let listener = try UnixListener(loop: loop, path: path) { $0.close() }
    defer { listener.close() }
    #expect(try #require(fileMode(directory.file("a"))) & 0o7777 == 0o700)
    #expect(try #require(fileMode(directory.file("a/b"))) & 0o7777 == 0o700)
    #expect(fileMode(path) != nil)
  }

  @Test func closeStopsAcceptingAndRemovesTheSocketFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("c.sock")
    let loop = try EventLoop()
    weak var weakListener: UnixListener?
    do {
      let listener = try UnixListener(loop: loop, path: path) { $0.close() }
      weakListener = listener
    }
    #expect(weakListener?.isListening == true)
    weakListener?.close()
    #expect(weakListener == nil)
    #expect(fileMode(path) == nil)
    #expect(throws: SystemError.self) { try BlockingLineSocket(path: path) }
  }

  @Test func refusesAPathTooLongForSunPath() throws {
    let loop = try EventLoop()
    let path = "/tmp/" + String(repeating: "x", count: 103)  // 108 bytes
    let error = try #require(throws: UnixSocketError.self) {
      try UnixListener(loop: loop, path: path) { $0.close() }
    }
    #expect(error.code == .pathTooLong)
  }

  @Test func bindFailsWhenASocketFileIsAlreadyThere() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("busy.sock")
    let loop = try EventLoop()
    let first = try UnixListener(loop: loop, path: path) { $0.close() }
    defer { first.close() }
    let error = try #require(throws: SystemError.self) {
      try UnixListener(loop: loop, path: path) { $0.close() }
    }
    #expect(error.errno == EADDRINUSE)
    #expect(error.function == "bind")
  }

  @Test func connectionsCarryPeerCredentialsAndIncreasingIDs() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("p.sock")
    let loop = try EventLoop()
    var accepted: [Connection] = []
    let listener = try UnixListener(loop: loop, path: path) { accepted.append($0) }
    defer { listener.close() }
    let clients = try (0..<3).map { _ in try BlockingLineSocket(path: path) }
    try loop.pump(until: { accepted.count == 3 })
    for connection in accepted {
      let credentials = try #require(connection.peerCredentials)
      #expect(credentials.uid == getuid())
      #expect(credentials.gid == getgid())
      #expect(credentials.pid == getpid())
    }
    let ids = accepted.map(\.id)
    #expect(ids == ids.sorted() && Set(ids).count == 3)
    for client in clients { client.close() }
    for connection in accepted { connection.close() }
  }

  @Test func closingFromInsideOnAcceptIsSafe() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("once.sock")
    let loop = try EventLoop()
    var accepted: [Connection] = []
    weak var weakListener: UnixListener?
    do {
      let listener = try UnixListener(loop: loop, path: path) { connection in
        accepted.append(connection)
        weakListener?.close()
      }
      weakListener = listener
    }
    let client = try BlockingLineSocket(path: path)
    try loop.pump(until: { !accepted.isEmpty })
    #expect(weakListener == nil)
    #expect(fileMode(path) == nil)
    // The accepted connection outlives its listener.
    let connection = try #require(accepted.first)
    var echoed: [UInt8] = []
    connection.onLine = { connection, line in
      echoed = line
      connection.write(line + [UInt8(ascii: "\n")])
    }
    try client.write("echo\n")
    try loop.pump(until: { !echoed.isEmpty && connection.pendingOutputBytes == 0 })
    #expect(try client.read(count: 5) == Array("echo\n".utf8))
    connection.close()
  }
}
