import Glibc
import LibeventLoop
import Testing
import UnixIO

/// Held output (Connection.holdOutput): it stays queued past the end of loop iterations
/// until flushNow, or until flush (which the application calls when a line from the peer
/// arrives, as the server core does), and is still sent by closeAfterFlush.
@Suite struct ConnectionHoldTests {
  /// Runs the loop for a few iterations that have nothing to do with the connection.
  private func runIdleIterations(_ loop: EventLoop) throws {
    for _ in 0..<3 { try loop.runOnce(blocking: false) }
  }

  @Test func heldOutputWaitsPastTheIterationUntilFlushNow() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    #expect(connection.write("frame 1\n"))
    connection.holdOutput()
    #expect(connection.write("frame 2\n"))
    try runIdleIterations(loop)
    #expect(connection.isHoldingOutput)
    #expect(connection.directWrites == 0)
    #expect(connection.pendingOutputBytes == 16)
    #expect(try client.readAvailable().isEmpty)
    // Written in a later iteration, still held, in order behind the others.
    #expect(connection.write("frame 3\n"))
    try runIdleIterations(loop)
    #expect(try client.readAvailable().isEmpty)
    connection.flushNow()
    #expect(!connection.isHoldingOutput)
    #expect(connection.directWrites == 1)
    #expect(
      String(decoding: try client.read(count: 24), as: UTF8.self)
        == "frame 1\nframe 2\nframe 3\n")
    // The hold is over: what follows leaves with its iteration.
    #expect(connection.write("frame 4\n"))
    try loop.pump(until: { connection.pendingOutputBytes == 0 })
    #expect(String(decoding: try client.read(count: 8), as: UTF8.self) == "frame 4\n")
    connection.close()
  }

  @Test func flushOnALineFromThePeerLiftsTheHoldSoItsReplyDoesNotWait() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    connection.onLine = { connection, line in
      connection.flush()
      connection.write(Array("re: ".utf8) + line + [10])
    }
    #expect(connection.write("held frame\n"))
    connection.holdOutput()
    try runIdleIterations(loop)
    #expect(try client.readAvailable().isEmpty)
    try client.write("ping\n")
    // The held frame first, then the reply, in one iteration's write.
    try loop.pump(until: { connection.pendingOutputBytes == 0 })
    #expect(!connection.isHoldingOutput)
    #expect(
      String(decoding: try client.read(count: 20), as: UTF8.self) == "held frame\nre: ping\n")
    connection.close()
  }

  @Test func closeAfterFlushStillSendsHeldOutput() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    var socketClosed = false
    connection.onSocketClosed = { _ in socketClosed = true }
    #expect(connection.write("last frame\n"))
    connection.holdOutput()
    try runIdleIterations(loop)
    connection.closeAfterFlush()
    try loop.pump(until: { socketClosed })
    #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == "last frame\n")
  }

  @Test func aClosedConnectionDoesNotHold() throws {
    let loop = try EventLoop()
    let (connection, _) = try makeConnectedPair(loop: loop)
    connection.close()
    connection.holdOutput()
    #expect(!connection.isHoldingOutput)
  }
}
