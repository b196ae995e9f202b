import SoakAnalysis
import Testing

/// The soak's lateness judgement: strict while the machine keeps up, the daemon's own share
/// when it does not.
@Suite struct LatenessJudgementTests {
  static func histogram(_ values: [Double]) -> LatenessHistogram {
    var histogram = LatenessHistogram()
    for value in values { histogram.record(value) }
    return histogram
  }

  static let calmMachine = histogram(Array(repeating: 0.0002, count: 2000))
  /// A machine where one wake-up in fifty waits 60 ms for a CPU.
  static let busyMachine = histogram(
    (0..<2000).map { $0 % 50 == 0 ? 0.06 : 0.002 })

  @Test func oneLateFrameFailsOnACalmMachine() {
    let frames = Self.histogram(Array(repeating: 0.001, count: 999) + [0.021])
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(judgement.machineKeptUp)
    #expect(judgement.lateFrames == 1)
    #expect(judgement.failure != nil)
  }

  @Test func framesAsLateAsTheMachinePassOnABusyMachine() {
    let frames = Self.histogram((0..<1000).map { $0 % 50 == 0 ? 0.065 : 0.003 })
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.busyMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(!judgement.machineKeptUp)
    #expect(judgement.lateFrames == 20)
    #expect(judgement.failure == nil)
  }

  @Test func aDaemonThatAddsItsOwnDelayFailsOnABusyMachine() {
    // Every frame 30 ms later than the machine makes it.
    let frames = Self.histogram((0..<1000).map { $0 % 50 == 0 ? 0.09 : 0.032 })
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.busyMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(judgement.addedLateness > 0.025)
    #expect(judgement.failure != nil)
  }

  /// 999 punctual frames and one 25 ms late, due at 100 s.
  static let oneLateFrame = histogram(Array(repeating: 0.001, count: 999) + [0.025])
  static let lateSpan = LateSpan(due: 100, arrived: 100.025)

  @Test func aLateFrameTheProbeStalledThroughToo() {
    // The probe's deadline came 3 ms after the frame's, and it ran when the frame arrived.
    let judgement = LatenessJudgement(
      frames: Self.oneLateFrame, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds,
      lateSpans: [Self.lateSpan], stalls: [LateSpan(due: 100.003, arrived: 100.025)])
    #expect(judgement.machineKeptUp)
    #expect(judgement.lateFrames == 1)
    #expect(judgement.unexplainedLateFrames == 0)
    #expect(judgement.failure == nil)
  }

  @Test func aLateFrameWithoutAStallOfTheProbeFails() {
    // Stalls before the frame was due and after it arrived explain nothing of it.
    let judgement = LatenessJudgement(
      frames: Self.oneLateFrame, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds,
      lateSpans: [Self.lateSpan],
      stalls: [LateSpan(due: 99.97, arrived: 99.999), LateSpan(due: 100.03, arrived: 100.06)])
    #expect(judgement.unexplainedLateFrames == 1)
    #expect(judgement.failure?.contains("beyond what the machine's own stalls explain") == true)
  }

  @Test func aFrameLaterThanTheStallByMoreThanTheLimitFails() {
    let frames = Self.histogram(Array(repeating: 0.001, count: 999) + [0.03])
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds,
      lateSpans: [LateSpan(due: 100, arrived: 100.03)],
      // Two stalls of 4 ms overlapping each other: 5 ms of the frame's wait, counted once.
      stalls: [LateSpan(due: 100.001, arrived: 100.005), LateSpan(due: 100.002, arrived: 100.006)]
    )
    #expect(abs(LateSpan(due: 100, arrived: 100.03).covered(by: judgement.stalls) - 0.005) < 1e-9)
    #expect(judgement.unexplainedLateFrames == 1)
    #expect(judgement.failure != nil)
  }

  @Test func lateFramesNotKeptAsSpansAreNeverExplained() {
    let frames = Self.histogram(Array(repeating: 0.001, count: 998) + [0.025, 0.025])
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds,
      lateSpans: [Self.lateSpan], stalls: [LateSpan(due: 100, arrived: 100.025)])
    #expect(judgement.lateFrames == 2)
    #expect(judgement.unexplainedLateFrames == 1)
  }

  /// One wake-up in fifty 9 ms late and one in two thousand 19 ms: within the limit at the
  /// 99.9th percentile, but no quiet machine.
  static let loadedMachine = histogram(
    (0..<2000).map { $0 == 0 ? 0.019 : $0 % 50 == 0 ? 0.009 : 0.0005 })

  @Test func aLoadedMachineWithinTheLimitIsJudgedOnTheDaemonsShare() {
    #expect(Self.loadedMachine.percentile(0.999) <= SoakLimits.lateFrameSeconds)
    // One frame in forty 25 ms late: the probe's p99 is 9 ms, so the daemon's share is 16 ms.
    let frames = Self.histogram((0..<1000).map { $0 % 40 == 0 ? 0.025 : 0.001 })
    let judgement = LatenessJudgement(
      frames: frames, wakeUps: Self.loadedMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(!judgement.machineKeptUp)
    #expect(judgement.lateFrames == 25)
    #expect(judgement.failure == nil)
    // The same frames on a quiet machine are the daemon's.
    let quiet = LatenessJudgement(
      frames: frames, wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(quiet.failure != nil)
  }

  @Test func noFramesFail() {
    let judgement = LatenessJudgement(
      frames: LatenessHistogram(), wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(judgement.failure == "no healthy subscriber got a frame")
  }
}
