import Testing

@testable import TransitionServer

/// The slow-subscriber policy: write under the soft limit, coalesce above it, disconnect
/// above the hard limit or after staying above the soft limit longer than the grace period.
@Suite struct BackpressureTests {
  /// A policy with soft limit 100 bytes, hard limit 1000 bytes and 5 s of grace.
  private func policy() -> Backpressure {
    var limits = ServerLimits()
    limits.subscriberSoftLimitBytes = 100
    limits.subscriberHardLimitBytes = 1000
    limits.subscriberSoftLimitSeconds = 5
    return Backpressure(limits: limits)
  }

  private func isDisconnect(_ decision: Backpressure.Decision) -> Bool {
    if case .disconnect = decision { return true }
    return false
  }

  @Test func limitsComeFromTheConfig() {
    let backpressure = policy()
    #expect(backpressure.softLimit == 100)
    #expect(backpressure.hardLimit == 1000)
    #expect(backpressure.grace == 5)
    #expect(backpressure.overSoftLimitSince == nil)
  }

  @Test func atOrUnderTheSoftLimitEveryFrameIsWritten() {
    var backpressure = policy()
    #expect(backpressure.decide(pending: 0, now: 10) == .write)
    #expect(backpressure.decide(pending: 100, now: 11) == .write)
    #expect(backpressure.overSoftLimitSince == nil)
  }

  @Test func overTheSoftLimitFramesAreCoalescedAndTheTimeIsNoted() {
    var backpressure = policy()
    #expect(backpressure.decide(pending: 101, now: 10) == .coalesce)
    #expect(backpressure.overSoftLimitSince == 10)
    #expect(backpressure.decide(pending: 1000, now: 12) == .coalesce)
    #expect(backpressure.overSoftLimitSince == 10)
  }

  @Test func overTheHardLimitDisconnectsAtOnce() {
    var backpressure = policy()
    let decision = backpressure.decide(pending: 1001, now: 0)
    #expect(decision == .disconnect(reason: "1001 unsent bytes, over the hard limit of 1000"))
    #expect(backpressure.hardLimitExceeded(pending: 1001) != nil)
    #expect(backpressure.hardLimitExceeded(pending: 1000) == nil)
  }

  @Test func overTheSoftLimitLongerThanTheGraceDisconnects() {
    var backpressure = policy()
    #expect(backpressure.decide(pending: 500, now: 100) == .coalesce)
    #expect(backpressure.decide(pending: 500, now: 105) == .coalesce)
    let late = backpressure.decide(pending: 500, now: 105.5)
    #expect(isDisconnect(late))
    #expect(
      late == .disconnect(reason: "over the soft limit of 100 unsent bytes for more than 5.0 s"))
  }

  @Test func fallingUnderTheSoftLimitRestartsTheGrace() {
    var backpressure = policy()
    #expect(backpressure.decide(pending: 500, now: 0) == .coalesce)
    #expect(backpressure.decide(pending: 50, now: 4) == .write)
    #expect(backpressure.overSoftLimitSince == nil)
    #expect(backpressure.decide(pending: 500, now: 6) == .coalesce)
    #expect(backpressure.decide(pending: 500, now: 10) == .coalesce)
    #expect(isDisconnect(backpressure.decide(pending: 500, now: 11.5)))
  }

  @Test func drainingUnderTheSoftLimitClearsTheClockButDrainingAboveItDoesNot() {
    var backpressure = policy()
    _ = backpressure.decide(pending: 500, now: 0)
    backpressure.drained(pending: 200)
    #expect(backpressure.overSoftLimitSince == 0)
    backpressure.drained(pending: 100)
    #expect(backpressure.overSoftLimitSince == nil)
    #expect(backpressure.decide(pending: 500, now: 20) == .coalesce)
  }
}
