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

  @Test func noFramesFail() {
    let judgement = LatenessJudgement(
      frames: LatenessHistogram(), wakeUps: Self.calmMachine, limit: SoakLimits.lateFrameSeconds)
    #expect(judgement.failure == "no healthy subscriber got a frame")
  }
}
