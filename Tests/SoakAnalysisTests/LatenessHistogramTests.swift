import SoakAnalysis
import Testing

/// The soak's lateness counts: percentiles to the bucket, frames past the limit, merging.
@Suite struct LatenessHistogramTests {
  @Test func percentilesAreTheUpperEdgeOfTheirBucket() {
    var histogram = LatenessHistogram()
    for index in 0..<1000 { histogram.record(Double(index) * 1e-5) }  // 0 to 9.99 ms
    #expect(histogram.total == 1000)
    #expect(abs(histogram.percentile(0.5) - 0.005) < 1.5e-4)
    #expect(abs(histogram.percentile(0.99) - 0.0099) < 1.5e-4)
    #expect(histogram.count(laterThan: SoakLimits.lateFrameSeconds) == 0)
  }

  @Test func aLateFrameIsCountedAndMerged() {
    var first = LatenessHistogram()
    first.record(0.001)
    var second = LatenessHistogram()
    second.record(0.025)
    second.record(3)  // past the last bucket
    first.merge(second)
    #expect(first.total == 3)
    #expect(first.count(laterThan: SoakLimits.lateFrameSeconds) == 2)
    #expect(first.maximum == 3)
    #expect(first.percentile(1) == 3)
  }

  @Test func anEarlyFrameCountsAsOnTime() {
    var histogram = LatenessHistogram()
    histogram.record(-0.0002)
    #expect(histogram.percentile(0.99) == 0)
    #expect(histogram.count(laterThan: 0.0001) == 0)
  }
}
