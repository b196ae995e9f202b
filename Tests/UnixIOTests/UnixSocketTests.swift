import Foundation
import Glibc
import Testing
import UnixIO

/// Sockets by path: bound, connected, written to in full, and failures that name the call,
/// its `errno` and the path.
@Suite struct UnixSocketTests {
  private func temporaryPath(_ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("unixio-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
  }

  @Test func aConnectedSocketReceivesEverythingWritten() throws {
    let path = try temporaryPath("s.sock")
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let listener = try UnixSocket.bind(path: path)
    defer { close(listener) }
    #expect(listen(listener, 1) == 0)
    let client = try UnixSocket.connect(path: path)
    let server = accept(listener, nil, nil)
    defer { close(server) }
    // Less than the socket's buffer, so the whole write completes before anything is read.
    let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0) }
    try writeAll(bytes, to: client, isSocket: true)
    close(client)
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = recv(server, &chunk, chunk.count, 0)
      if count <= 0 { break }
      received += chunk[..<count]
    }
    #expect(received == bytes)
  }

  @Test func connectingToNothingNamesTheCallAndThePath() throws {
    let path = try temporaryPath("missing.sock")
    let error = try #require(throws: SystemError.self) { try UnixSocket.connect(path: path) }
    #expect(error.function == "connect")
    #expect(error.errno == ENOENT)
    #expect(error.path == path)
  }

  @Test func aPathTooLongForSunPathIsRefusedBeforeAnySocketIsMade() {
    let path = "/tmp/" + String(repeating: "x", count: UnixSocketAddress.maximumPathLength)
    let error = #expect(throws: SystemError.self) { try UnixSocket.connect(path: path) }
    #expect(error?.function == "sockaddr_un")
    #expect(error?.errno == ENAMETOOLONG)
    #expect(throws: SystemError.self) { try UnixSocketAddress(path: "") }
  }

  @Test func anAbstractNameHasNoTerminatingNul() throws {
    let address = try UnixSocketAddress(path: "@name", allowAbstract: true)
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
    #expect(Int(address.length) == pathOffset + 5)
    let file = try UnixSocketAddress(path: "name")
    #expect(Int(file.length) == pathOffset + 5)
  }
}
