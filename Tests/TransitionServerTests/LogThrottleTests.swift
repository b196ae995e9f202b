import Testing

@testable import TransitionServer

/// At most a burst of lines a second; what is held back is counted and reported with the next
/// line let through.
@Suite struct LogThrottleTests {
  @Test func aBurstGoesThroughThenLinesAreCountedUntilTheNextSecond() {
    var throttle = LogThrottle(burst: 3)
    let first = (0..<5).map { throttle.admit(at: 10 + Double($0) * 0.1) }
    #expect(first.map(\.write) == [true, true, true, false, false])
    #expect(first.allSatisfy { $0.suppressed == 0 })
    // A second after the window began: written, with the two held back.
    let next = throttle.admit(at: 11.05)
    #expect(next.write && next.suppressed == 2)
    #expect(throttle.admit(at: 11.1).suppressed == 0)
  }

  @Test func aClockThatGoesBackStartsANewWindow() {
    var throttle = LogThrottle(burst: 1)
    #expect(throttle.admit(at: 5).write)
    #expect(!throttle.admit(at: 5.5).write)
    #expect(throttle.admit(at: 4) == (true, 1))
  }
}
