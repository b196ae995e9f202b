/// A wait past a deadline, on the monotonic clock every process of a soak shares: a frame from
/// when it was due to when its reader got it, or the wake-up probe from its deadline to when it
/// ran.
public struct LateSpan: Equatable, Sendable, Codable {
  public let due: Double
  public let arrived: Double

  public init(due: Double, arrived: Double) {
    self.due = due
    self.arrived = arrived
  }

  public var lateness: Double { arrived - due }

  /// How much of this span `spans` cover, each instant counted once.
  /// - Parameter spans: sorted by `due`.
  public func covered(by spans: [LateSpan]) -> Double {
    var total = 0.0
    var reached = due
    for span in spans {
      if span.due >= arrived { break }
      let start = max(reached, span.due)
      let end = min(arrived, span.arrived)
      if end > start {
        total += end - start
        reached = end
      }
    }
    return total
  }
}
