import SoakAnalysis
import Testing

/// The soak's growth judgement catches a leak and lets a flat, noisy series pass
/// (docs/security.md, "Soak").
@Suite struct GrowthJudgementTests {
  /// A resident-memory series of `seconds` one-second samples around 23 MB, with the
  /// deterministic wobble of a churning daemon (±300 KB) and `leak` bytes a second on top.
  static func memory(seconds: Int, leak: Double, spikeAt spike: Int? = nil) -> [MetricSample] {
    (0..<seconds).map { second in
      let wobble = Double((second * 7919) % 601 - 300) * 1024
      let burst = second == spike ? 6.0 * 1_048_576 : 0
      return MetricSample(
        time: Double(second), value: 23 * 1_048_576 + wobble + burst + leak * Double(second))
    }
  }

  @Test func aLeakOfFourKilobytesABeginFailsATwoMinuteSoak() throws {
    // 3,500 begins in 4 minutes (the churn measured when the issue was filed) leaking 4 KB
    // each: 58 KB a second, 5 MB over the 90 s judged of a 120 s soak.
    let leak = 3_500.0 * 4096 / 240
    let judgement = try #require(
      GrowthJudgement(
        samples: Self.memory(seconds: 90, leak: leak), slack: SoakMetric.residentBytes.slack))
    #expect(judgement.exceeded)
    #expect(judgement.growth > 4.5 * 1_048_576)
    #expect(abs(judgement.slopePerMinute - leak * 60) < 0.1 * leak * 60)
  }

  @Test func aFlatNoisySeriesPasses() throws {
    let judgement = try #require(
      GrowthJudgement(
        samples: Self.memory(seconds: 90, leak: 0), slack: SoakMetric.residentBytes.slack))
    #expect(!judgement.exceeded)
    #expect(abs(judgement.growth) < 600 * 1024)
  }

  @Test func oneSpikeAtTheEndDoesNotCountAsGrowth() throws {
    // A burst in the last window moves its median by nothing: one sample of nine.
    let judgement = try #require(
      GrowthJudgement(
        samples: Self.memory(seconds: 90, leak: 0, spikeAt: 88),
        slack: SoakMetric.residentBytes.slack))
    #expect(!judgement.exceeded)
    #expect(judgement.range.upperBound > 28 * 1_048_576)
  }

  @Test func descriptorsThatClimbByOneEveryTenSecondsFail() throws {
    // A descriptor lost on each plugin host restart, say: one every 10 s, 9 in 90 s.
    let samples = (0..<90).map { (second: Int) -> MetricSample in
      let open: Int = 14 + second % 3 + second / 10
      return MetricSample(time: Double(second), value: Double(open))
    }
    let judgement = try #require(
      GrowthJudgement(samples: samples, slack: SoakMetric.descriptors.slack))
    #expect(judgement.exceeded)
    let flat = (0..<90).map { (second: Int) -> MetricSample in
      MetricSample(time: Double(second), value: Double(14 + second % 5))
    }
    #expect(GrowthJudgement(samples: flat, slack: SoakMetric.descriptors.slack)?.exceeded == false)
  }

  @Test func tooFewSamplesAreNotJudged() {
    let samples = (0..<5).map { MetricSample(time: Double($0), value: 1) }
    #expect(GrowthJudgement(samples: samples, slack: 0) == nil)
  }
}
