/// How late frames arrived, counted in buckets of a tenth of a millisecond up to
/// ``limitSeconds``, with one bucket for everything later: a soak's subscribers record every
/// frame in one, the soak merges them and reads percentiles (docs/security.md, "Soak").
public struct LatenessHistogram: Equatable, Sendable, Codable {
  /// The width of a bucket, in seconds.
  public static let bucketSeconds = 1e-4
  /// Where the last bucket starts: later frames all land in it.
  public static let limitSeconds = 0.2

  /// Frames per bucket; the last holds every frame at or past ``limitSeconds``.
  public private(set) var counts: [Int]
  /// The latest frame recorded, in seconds.
  public private(set) var maximum = 0.0

  public init() {
    counts = Array(repeating: 0, count: Int((Self.limitSeconds / Self.bucketSeconds).rounded()) + 1)
  }

  /// How many frames were recorded.
  public var total: Int { counts.reduce(0, +) }

  /// Records one frame `seconds` late (a frame early by the clocks' error counts as on time).
  public mutating func record(_ seconds: Double) {
    let late = seconds.isNaN ? Self.limitSeconds : max(0, seconds)
    counts[min(counts.count - 1, Int(late / Self.bucketSeconds))] += 1
    maximum = max(maximum, late)
  }

  /// Adds another histogram's frames to this one.
  public mutating func merge(_ other: LatenessHistogram) {
    for index in counts.indices where index < other.counts.count {
      counts[index] += other.counts[index]
    }
    maximum = max(maximum, other.maximum)
  }

  /// The lateness that `fraction` of the frames (0.99 for the 99th percentile) did not exceed:
  /// the upper edge of the bucket it falls in; 0 with no frames.
  public func percentile(_ fraction: Double) -> Double {
    let total = total
    guard total > 0 else { return 0 }
    let rank = Int((fraction * Double(total)).rounded(.up))
    var seen = 0
    for (index, count) in counts.enumerated() {
      seen += count
      if seen >= max(rank, 1) {
        return index == counts.count - 1
          ? maximum : min(maximum, Double(index + 1) * Self.bucketSeconds)
      }
    }
    return maximum
  }

  /// How many frames were later than `seconds` (to the bucket: a frame in the bucket that
  /// holds `seconds` counts when the bucket starts at or after it).
  public func count(laterThan seconds: Double) -> Int {
    let first = Int((seconds / Self.bucketSeconds).rounded(.up))
    guard first < counts.count else { return 0 }
    return counts[max(0, first)...].reduce(0, +)
  }
}
