/// The slow-subscriber policy of one connection: when its frames are written, coalesced or
/// the connection dropped, judged by the bytes it has not read yet.
///
/// - At or below the soft limit every frame is written.
/// - Above it, frames are coalesced: only the newest frame of each stream waits, the others
///   are dropped (and counted); `complete` events and replies are still written.
/// - Above the hard limit, or above the soft limit for longer than the grace period, the
///   client is disconnected.
struct Backpressure {
  /// What to do with one frame.
  enum Decision: Equatable {
    case write
    case coalesce
    case disconnect(reason: String)
  }

  var softLimit: Int
  var hardLimit: Int
  var grace: Double
  /// When the connection last went above the soft limit; nil while below it.
  private(set) var overSoftLimitSince: Double?

  init(limits: ServerLimits) {
    softLimit = limits.subscriberSoftLimitBytes
    hardLimit = limits.subscriberHardLimitBytes
    grace = limits.subscriberSoftLimitSeconds
  }

  /// Decides the fate of a frame when `pending` bytes are still unsent at monotonic `now`.
  mutating func decide(pending: Int, now: Double) -> Decision {
    if pending > hardLimit {
      return .disconnect(reason: "\(pending) unsent bytes, over the hard limit of \(hardLimit)")
    }
    guard pending > softLimit else {
      overSoftLimitSince = nil
      return .write
    }
    guard let since = overSoftLimitSince else {
      overSoftLimitSince = now
      return .coalesce
    }
    if now - since > grace {
      return .disconnect(
        reason: "over the soft limit of \(softLimit) unsent bytes for more than \(grace) s")
    }
    return .coalesce
  }

  /// The reason to disconnect after a write that left `pending` bytes unsent, or nil.
  func hardLimitExceeded(pending: Int) -> String? {
    pending > hardLimit
      ? "\(pending) unsent bytes, over the hard limit of \(hardLimit)" : nil
  }

  /// Records that the unsent bytes fell to `pending`.
  mutating func drained(pending: Int) {
    if pending <= softLimit { overSoftLimitSince = nil }
  }
}
