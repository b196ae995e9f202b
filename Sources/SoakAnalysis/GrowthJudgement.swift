/// Whether a metric grew over a soak by more than its slack (docs/security.md, "Soak").
///
/// The series after the warm-up is cut into a first and a last window, each a tenth of the
/// samples (at least three); the metric's level at either end is the window's median, so one
/// spike (a burst of sessions, a plugin host restart) moves neither, and growth is the last
/// level minus the first. A metric that leaks, however slowly, grows by its rate times the
/// soak's length; one that only wobbles with the load ends where it began. The least-squares
/// slope is reported beside it, per minute, as a figure to read, not as the judgement (on a short
/// soak it is mostly noise).
public struct GrowthJudgement: Equatable, Sendable {
  /// The median of the first window.
  public let baseline: Double
  /// The median of the last window.
  public let end: Double
  /// The least-squares slope of the whole series, per minute.
  public let slopePerMinute: Double
  /// The growth allowed.
  public let slack: Double
  /// The lowest and highest samples.
  public let range: ClosedRange<Double>

  /// The growth from the first window to the last.
  public var growth: Double { end - baseline }

  /// True when the metric grew by more than ``slack``.
  public var exceeded: Bool { growth > slack }

  /// The fewest samples a series needs to be judged: two windows of three.
  public static let minimumSamples = 6

  /// Judges `samples` (in time order) against `slack`.
  ///
  /// - Returns: nil for fewer than ``minimumSamples`` samples.
  public init?(samples: [MetricSample], slack: Double) {
    guard samples.count >= Self.minimumSamples else { return nil }
    let window = max(3, samples.count / 10)
    baseline = Self.median(samples.prefix(window).map(\.value))
    end = Self.median(samples.suffix(window).map(\.value))
    slopePerMinute = Self.slope(samples) * 60
    self.slack = slack
    let values = samples.map(\.value)
    range = values.min()!...values.max()!
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The least-squares slope of value over time, per second; 0 when every sample has the same
  /// time.
  static func slope(_ samples: [MetricSample]) -> Double {
    let count = Double(samples.count)
    let meanTime = samples.reduce(0) { $0 + $1.time } / count
    let meanValue = samples.reduce(0) { $0 + $1.value } / count
    var covariance = 0.0
    var variance = 0.0
    for sample in samples {
      covariance += (sample.time - meanTime) * (sample.value - meanValue)
      variance += (sample.time - meanTime) * (sample.time - meanTime)
    }
    return variance > 0 ? covariance / variance : 0
  }
}
