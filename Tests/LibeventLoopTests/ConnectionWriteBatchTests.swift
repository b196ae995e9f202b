import Glibc
import LibeventLoop
import Testing
import UnixIO

/// What a connection writes during one loop iteration leaves in one write, made straight to
/// the socket once the iteration's callbacks have run (Connection, "Writes").
@Suite struct ConnectionWriteBatchTests {
  @Test func writesOfOneIterationLeaveInOneDirectWrite() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    #expect(connection.write("one\n"))
    #expect(connection.write("two\n"))
    #expect(connection.write("three\n"))
    // Collected, not written yet: the iteration has not ended.
    #expect(connection.pendingOutputBytes == 14)
    #expect(connection.directWrites == 0)
    try loop.pump(until: { connection.pendingOutputBytes == 0 })
    #expect(connection.directWrites == 1)
    #expect(String(decoding: try client.read(count: 14), as: UTF8.self) == "one\ntwo\nthree\n")
    #expect(connection.write("four\n"))
    try loop.pump(until: { connection.pendingOutputBytes == 0 })
    #expect(connection.directWrites == 2)
    #expect(String(decoding: try client.read(count: 5), as: UTF8.self) == "four\n")
    connection.close()
  }

  @Test func flushNowWritesWhatIsQueuedBeforeTheIterationEnds() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    // Nothing queued: nothing to write.
    connection.flushNow()
    #expect(connection.directWrites == 0)
    #expect(connection.write("reply\n"))
    #expect(connection.write("frame\n"))
    connection.flushNow()
    // Written within the iteration, in one write, before the loop ran.
    #expect(connection.directWrites == 1)
    #expect(connection.pendingOutputBytes == 0)
    #expect(String(decoding: try client.read(count: 12), as: UTF8.self) == "reply\nframe\n")
    // What is queued afterwards still leaves with the iteration's flush, after it.
    #expect(connection.write("tick\n"))
    #expect(connection.directWrites == 1)
    try loop.pump(until: { connection.pendingOutputBytes == 0 })
    #expect(connection.directWrites == 2)
    #expect(String(decoding: try client.read(count: 5), as: UTF8.self) == "tick\n")
    connection.close()
  }

  @Test func aDrainDueAtFlushNowIsReportedByTheIterationsFlush() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    var drained = 0
    connection.writeLowWatermark = 4
    connection.onDrained = { _ in drained += 1 }
    #expect(connection.write("over the watermark\n"))
    connection.flushNow()
    // Never reported from inside flushNow.
    #expect(drained == 0)
    #expect(connection.pendingOutputBytes == 0)
    try loop.pump(until: { drained > 0 })
    #expect(connection.directWrites == 1)
    #expect(try client.read(count: 19).count == 19)
    connection.close()
  }

  @Test func whatTheKernelDoesNotTakeWaitsInOrderForTheReader() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    var drained = 0
    connection.onDrained = { _ in drained += 1 }
    // Far more than a socket buffer holds, in one iteration, then more after it.
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16) + [10]
    for _ in 0..<64 { #expect(connection.write(chunk)) }
    try loop.runOnce(blocking: false)
    #expect(connection.pendingOutputBytes > 0)
    #expect(connection.write("last\n"))
    var received: [UInt8] = []
    let expected = 64 * chunk.count + 5
    while received.count < expected {
      try loop.runOnce(blocking: false)
      received += try client.readAvailable()
    }
    #expect(received.count == expected)
    #expect(Array(received.suffix(5)) == Array("last\n".utf8))
    #expect(received.filter { $0 == 10 }.count == 65)
    try loop.pump(until: { drained > 0 })
    connection.close()
  }
}
