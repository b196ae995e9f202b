import Glibc
import LibeventLoop
import Testing
import UnixIO

/// Records what a connection reports.
private final class Recorder {
  var lines: [String] = []
  var tooLong = 0
  var drained = 0
  var closes: [Connection.CloseReason] = []

  func attach(to connection: Connection) {
    connection.onLine = { [unowned self] _, line in
      lines.append(String(decoding: line, as: UTF8.self))
    }
    connection.onLineTooLong = { [unowned self] _ in tooLong += 1 }
    connection.onDrained = { [unowned self] _ in drained += 1 }
    connection.onClose = { [unowned self] _, reason in closes.append(reason) }
  }
}

@Suite struct ConnectionTests {
  @Test func joinsALineSplitAcrossWrites() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    let recorder = Recorder()
    recorder.attach(to: connection)
    try client.write("{\"op\":")
    try loop.runOnce()
    try client.write("\"hel")
    try loop.runOnce()
    try client.write("lo\"}\n")
    try loop.pump(until: { !recorder.lines.isEmpty })
    #expect(recorder.lines == ["{\"op\":\"hello\"}"])
    connection.close()
  }

  @Test func splitsSeveralLinesFromOneWrite() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    let recorder = Recorder()
    recorder.attach(to: connection)
    try client.write("a\nbb\n\nccc\r\nrest")
    try loop.pump(until: { recorder.lines.count == 4 })
    #expect(recorder.lines == ["a", "bb", "", "ccc\r"])
    try client.write("\n")
    try loop.pump(until: { recorder.lines.count == 5 })
    #expect(recorder.lines.last == "rest")
    connection.close()
  }

  @Test func acceptsALineOfExactlyTheMaximumLength() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    connection.maximumLineLength = 16
    let recorder = Recorder()
    recorder.attach(to: connection)
    try client.write(String(repeating: "x", count: 16) + "\n")
    try loop.pump(until: { recorder.lines.count == 1 })
    #expect(recorder.lines == [String(repeating: "x", count: 16)])
    #expect(recorder.tooLong == 0)
    connection.close()
  }

  @Test func reportsAnOverlongCompleteLineAndKeepsTheNextOne() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    connection.maximumLineLength = 16
    let recorder = Recorder()
    recorder.attach(to: connection)
    try client.write(String(repeating: "x", count: 17) + "\nok\n")
    try loop.pump(until: { recorder.lines.count == 1 })
    #expect(recorder.tooLong == 1)
    #expect(recorder.lines == ["ok"])
    connection.close()
  }

  @Test func discardsAnOverlongLineArrivingInPiecesUpToItsNewline() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    connection.maximumLineLength = 1024
    let recorder = Recorder()
    recorder.attach(to: connection)
    // 100 KiB without a newline: more than the line limit and the read watermark.
    try client.write([UInt8](repeating: UInt8(ascii: "y"), count: 100 * 1024))
    try loop.pump(until: { recorder.tooLong == 1 })
    try client.write("still the same line\nnext\n")
    try loop.pump(until: { recorder.lines.count == 1 })
    #expect(recorder.lines == ["next"])
    #expect(recorder.tooLong == 1)
    connection.close()
  }

  @Test func queuesOutputReportsItAndSignalsTheDrain() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    let recorder = Recorder()
    recorder.attach(to: connection)
    let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
    #expect(connection.write(payload))
    #expect(connection.pendingOutputBytes == 1000)
    try loop.pump(until: { recorder.drained > 0 })
    #expect(connection.pendingOutputBytes == 0)
    #expect(try client.read(count: 1000) == payload)
    connection.close()
  }

  @Test func writesFromRawBuffersAndStrings() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    let recorder = Recorder()
    recorder.attach(to: connection)
    let bytes: [UInt8] = [1, 2, 3]
    bytes.withUnsafeBytes { #expect(connection.write($0)) }
    #expect(connection.write("ab\n"))
    #expect(connection.pendingOutputBytes == 6)
    try loop.pump(until: { recorder.drained > 0 })
    #expect(try client.read(count: 6) == [1, 2, 3, 97, 98, 10])
    connection.close()
  }

  @Test func slowReaderIsResumedAtTheLowWatermark() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    let lowWatermark = 1 << 20
    connection.writeLowWatermark = lowWatermark
    var pendingAtDrain: [Int] = []
    connection.onDrained = { pendingAtDrain.append($0.pendingOutputBytes) }
    let total = 4 << 20
    let payload = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    #expect(connection.write(payload))
    // Nobody reads yet: the socket fills and the rest stays queued.
    try loop.runOnce(blocking: false)
    try loop.runOnce(blocking: false)
    #expect(connection.pendingOutputBytes > lowWatermark)
    #expect(pendingAtDrain.isEmpty)

    var received: [UInt8] = []
    received.reserveCapacity(total)
    while received.count < total {
      received += try client.readAvailable()
      try loop.runOnce(blocking: false)
    }
    #expect(received == payload)
    #expect(!pendingAtDrain.isEmpty)
    #expect(pendingAtDrain.allSatisfy { $0 <= lowWatermark })
    connection.close()
  }

  @Test func closeAfterFlushSendsQueuedOutputThenCloses() throws {
    let loop = try EventLoop()
    let recorder = Recorder()
    let client: BlockingLineSocket
    weak var weakConnection: Connection?
    do {
      let (connection, pairedClient) = try makeConnectedPair(loop: loop)
      client = pairedClient
      recorder.attach(to: connection)
      weakConnection = connection
      connection.write("bye\n")
      connection.closeAfterFlush()
      #expect(!connection.isOpen)
      #expect(!connection.write("ignored"))
    }
    #expect(recorder.closes == [.local])
    try loop.pump(until: { weakConnection == nil })
    #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == "bye\n")
    #expect(recorder.closes == [.local])
  }

  @Test func onSocketClosedRunsOnceTheQueuedOutputIsSent() throws {
    let loop = try EventLoop()
    let (connection, client) = try makeConnectedPair(loop: loop)
    var events: [String] = []
    connection.onClose = { _, _ in events.append("close") }
    connection.onSocketClosed = { _ in events.append("socket closed") }
    connection.write("bye\n")
    connection.closeAfterFlush()
    #expect(events == ["close"])
    try loop.pump(until: { events.count == 2 })
    #expect(events == ["close", "socket closed"])
    #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == "bye\n")

    let (closedNow, _) = try makeConnectedPair(loop: loop)
    var socketClosed = 0
    closedNow.onSocketClosed = { _ in socketClosed += 1 }
    closedNow.write("dropped")
    closedNow.close()
    closedNow.close()
    #expect(socketClosed == 1)
  }

  @Test func closingFromInsideOnLineStopsDeliveryAndFreesTheConnection() throws {
    let loop = try EventLoop()
    let recorder = Recorder()
    let client: BlockingLineSocket
    weak var weakConnection: Connection?
    do {
      let (connection, pairedClient) = try makeConnectedPair(loop: loop)
      client = pairedClient
      recorder.attach(to: connection)
      connection.onLine = { connection, line in
        recorder.lines.append(String(decoding: line, as: UTF8.self))
        connection.write("unsent")
        connection.close()
        connection.close()
      }
      weakConnection = connection
    }
    try client.write("a\nb\nc\n")
    try loop.pump(until: { !recorder.closes.isEmpty })
    #expect(recorder.lines == ["a"])
    #expect(recorder.closes == [.local])
    #expect(weakConnection == nil)
    #expect(try client.readToEnd().isEmpty)
  }

  @Test func closingFromInsideEveryOtherCallbackIsSafe() throws {
    let loop = try EventLoop()
    // onLineTooLong
    do {
      let (connection, client) = try makeConnectedPair(loop: loop)
      connection.maximumLineLength = 4
      var closes = 0
      connection.onLineTooLong = { $0.close() }
      connection.onClose = { connection, _ in
        closes += 1
        connection.close()
      }
      try client.write("toolong\nx\n")
      try loop.pump(until: { closes > 0 })
      #expect(closes == 1)
      #expect(!connection.isOpen)
    }
    // onDrained
    do {
      let (connection, client) = try makeConnectedPair(loop: loop)
      var closes = 0
      connection.onDrained = { $0.close() }
      connection.onClose = { _, _ in closes += 1 }
      connection.write("x")
      try loop.pump(until: { closes > 0 })
      #expect(closes == 1)
      #expect(try client.readToEnd() == [UInt8(ascii: "x")])
    }
  }

  @Test func peerEndOfStreamClosesOnceAfterFlushingReplies() throws {
    let loop = try EventLoop()
    let recorder = Recorder()
    let client: BlockingLineSocket
    weak var weakConnection: Connection?
    do {
      let (connection, pairedClient) = try makeConnectedPair(loop: loop)
      client = pairedClient
      recorder.attach(to: connection)
      connection.onLine = { connection, line in
        connection.write(line + [UInt8(ascii: "!"), UInt8(ascii: "\n")])
      }
      weakConnection = connection
    }
    try client.write("ping\n")
    client.shutdownWrite()
    try loop.pump(until: { weakConnection == nil })
    #expect(recorder.closes == [.peerClosed])
    #expect(String(decoding: try client.readToEnd(), as: UTF8.self) == "ping!\n")
  }

  @Test func endedConnectionRefusesWritesAndReportsNoOutput() throws {
    let loop = try EventLoop()
    let (connection, _) = try makeConnectedPair(loop: loop)
    connection.write("queued")
    connection.close()
    #expect(!connection.isOpen)
    #expect(!connection.write("late"))
    #expect(connection.pendingOutputBytes == 0)
  }
}
