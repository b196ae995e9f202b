import Glibc
import Testing
import TransitionServer
import TransitionServerTesting

@testable import DaemonSupport

/// The daemon's log lines: `2026-11-29T12:00:00Z info transitiond: message`, one a write.
@Suite struct StandardErrorLogSinkTests {
  @Test func timestampIsUTCSecondsInISO8601() {
    #expect(StandardErrorLogSink.timestamp(0) == "1970-01-01T00:00:00Z")
    #expect(StandardErrorLogSink.timestamp(1_795_953_600) == "2026-11-29T12:00:00Z")
    let now = Array(StandardErrorLogSink.timestamp(time(nil)).utf8)
    #expect(now.count == 20)
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
    for index in digits {
      #expect(now[index] >= UInt8(ascii: "0") && now[index] <= UInt8(ascii: "9"))
    }
    #expect(
      String(decoding: [now[4], now[7], now[10], now[13], now[16], now[19]], as: UTF8.self)
        == "--T::Z")
  }

  @Test func aLineIsTheTimeTheLevelTheProgramAndTheMessageOnOneLine() {
    #expect(
      StandardErrorLogSink.line(
        level: .warn, message: "two\nlines", program: "transitiond", at: 1_795_953_600)
        == "2026-11-29T12:00:00Z warn transitiond: two lines\n")
  }

  @Test func aLoggerThroughTheSinkWritesItsLinesToTheDescriptor() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let sink = StandardErrorLogSink(program: "test", descriptor: ends[1])
    let logger = Logger(level: .info, clock: FakeClock(), sink: sink)
    logger.info("first")
    logger.debug("left out")
    sink.write(.error, "second")
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasSuffix(" info test: first") == true, "\(lines)")
    #expect(lines.last?.hasSuffix(" error test: second") == true, "\(lines)")
  }
}
