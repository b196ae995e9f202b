import Glibc
import LibeventLoop
import Testing
import UnixIO

/// An unfinished line is timed from its first byte; a complete line clears it.
@Suite struct PartialLineTimeoutTests {
  /// A loop and a connection whose unfinished lines time out after 0.05 s; each report is
  /// counted in `reports` and closes the connection.
  final class TimedConnection {
    let loop: EventLoop
    let connection: Connection
    let client: BlockingLineSocket
    private(set) var reports = 0

    init() throws {
      loop = try EventLoop()
      (connection, client) = try makeConnectedPair(loop: loop)
      connection.partialLineTimeout = 0.05
      connection.onPartialLineTimeout = { [unowned self] connection in
        reports += 1
        connection.close()
      }
    }
  }

  @Test func anUnfinishedLineIsReportedOnceItIsOld() throws {
    let timed = try TimedConnection()
    let (loop, connection) = (timed.loop, timed.connection)
    #expect(connection.partialLineSince == nil)
    try timed.client.write("{\"op\":")
    try loop.pump(until: { connection.partialLineSince != nil })
    let since = try #require(connection.partialLineSince)
    try loop.pump(until: { timed.reports > 0 })
    #expect(timed.reports == 1)
    #expect(loop.now - since >= 0.05)
    #expect(!connection.isOpen)
  }

  @Test func completeLinesLeaveNoPartialLine() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    var lines: [String] = []
    var timedOut = 0
    connection.partialLineTimeout = 3600
    connection.onLine = { _, line in lines.append(String(decoding: line, as: UTF8.self)) }
    connection.onPartialLineTimeout = { _ in timedOut += 1 }
    try client.write("{\"a\":1}\n{\"b\"")
    try loop.pump(until: { lines.count == 1 && connection.partialLineSince != nil })
    let first = connection.partialLineSince
    try client.write(":2}\n")
    try loop.pump(until: { lines.count == 2 })
    #expect(connection.partialLineSince == nil)
    #expect(first != nil)
    #expect(timedOut == 0)
    connection.close()
  }

  @Test func trickledBytesDoNotMoveTheStart() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    try client.write("a")
    try loop.pump(until: { connection.partialLineSince != nil })
    let since = connection.partialLineSince
    try client.write("b")
    try loop.runOnce()
    try client.write("c")
    try loop.runOnce()
    #expect(connection.partialLineSince == since)
    connection.close()
  }

  /// A byte that arrives after the line's deadline, read before the timer's turn in the same
  /// loop iteration (a busy loop wakes with both ready), still ends in the report.
  @Test func aByteReadAfterTheDeadlineDoesNotCancelTheReport() throws {
    let timed = try TimedConnection()
    let (loop, connection) = (timed.loop, timed.connection)
    try timed.client.write("a")
    try loop.pump(until: { connection.partialLineSince != nil })
    let deadline = try #require(connection.partialLineSince) + 0.05
    // The loop is busy past the deadline; the next byte is waiting when it looks again.
    while loop.now <= deadline { usleep(1_000) }
    try timed.client.write("b")
    try loop.pump(until: { timed.reports > 0 })
    #expect(timed.reports == 1)
    #expect(!connection.isOpen)
  }
}
