import Testing

@testable import TransitionServer

/// Log level names and order, and the logger's timestamp.
@Suite struct LogLevelTests {
  @Test func namesRoundTrip() {
    #expect(LogLevel.allCases.map(\.description) == ["error", "warn", "info", "debug"])
    for level in LogLevel.allCases {
      #expect(LogLevel(name: level.description) == level)
    }
  }

  @Test func unknownOrMiscasedNamesAreNil() {
    #expect(LogLevel(name: "warning") == nil)
    #expect(LogLevel(name: "INFO") == nil)
    #expect(LogLevel(name: "") == nil)
  }

  @Test func eachLevelIncludesTheOnesAboveIt() {
    #expect(LogLevel.error < .warn)
    #expect(LogLevel.warn < .info)
    #expect(LogLevel.info < .debug)
    #expect(!(LogLevel.debug < .error))
  }

  @Test func timestampIsUTCSecondsInISO8601() {
    let stamp = Array(Logger.timestamp().utf8)
    #expect(stamp.count == 20)
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
    for index in digits {
      #expect(stamp[index] >= UInt8(ascii: "0") && stamp[index] <= UInt8(ascii: "9"))
    }
    #expect(
      String(
        decoding: [stamp[4], stamp[7], stamp[10], stamp[13], stamp[16], stamp[19]], as: UTF8.self)
        == "--T::Z")
  }
}
