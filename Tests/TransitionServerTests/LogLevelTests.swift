import Testing

@testable import TransitionServer

/// Log level names and order.
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
}
