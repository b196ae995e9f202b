import Testing

@testable import TransitionClient

/// The waits between a client's attempts to reach a daemon that went away.
@Suite struct ReconnectBackoffTests {
  @Test func theWaitDoublesFromFiftyMillisecondsUpToTwoSeconds() {
    let backoff = ReconnectBackoff()
    let waits = (0..<9).map { backoff.delay(afterFailedAttempt: $0, elapsed: .seconds(1)) }
    #expect(
      waits == [
        .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400),
        .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2), .seconds(2),
      ])
    // The default never gives up.
    #expect(backoff.delay(afterFailedAttempt: 1000, elapsed: .seconds(86_400)) == .seconds(2))
  }

  @Test func itGivesUpOnceItsTimeHasPassedAndItsLastWaitEndsThen() {
    let backoff = ReconnectBackoff(
      initial: .milliseconds(100), multiplier: 3, maximum: .seconds(1),
      giveUpAfter: .seconds(2))
    #expect(backoff.delay(afterFailedAttempt: 0, elapsed: .zero) == .milliseconds(100))
    #expect(backoff.delay(afterFailedAttempt: 2, elapsed: .milliseconds(500)) == .milliseconds(900))
    #expect(backoff.delay(afterFailedAttempt: 3, elapsed: .milliseconds(500)) == .seconds(1))
    #expect(
      backoff.delay(afterFailedAttempt: 5, elapsed: .milliseconds(1700)) == .milliseconds(300))
    #expect(backoff.delay(afterFailedAttempt: 6, elapsed: .seconds(2)) == nil)
  }

  @Test func aShrinkingMultiplierOrAMaximumBelowTheFirstWaitIsRaised() {
    let backoff = ReconnectBackoff(initial: .seconds(1), multiplier: 0.5, maximum: .zero)
    #expect(backoff.multiplier == 1)
    #expect(backoff.maximum == .seconds(1))
    #expect(backoff.delay(afterFailedAttempt: 4, elapsed: .zero) == .seconds(1))
  }
}
