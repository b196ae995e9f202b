/// Whether healthy subscribers got their frames in time (docs/security.md, "Soak").
///
/// A frame is late when it reached its reader more than ``limit`` after it was due. A reader
/// can only be as punctual as the machine lets it run, so the soak also measures the machine:
/// a probe of the same priority relays 60 Hz deadlines from a sleeping thread through a pipe
/// to a reading one, a frame's path without the daemon's work, and records how late each
/// arrives (``wakeUps``). While the machine is quiet (the probe's 99th percentile within
/// ``stallFloor``, its 99.9th within the limit), a late frame is the daemon's and fails the
/// soak, unless the probe itself stalled while the frame waited (``stalls``) and the frame's
/// lateness beyond those stalls is within the limit: the machine held both, as it does now and
/// then even when it is quiet. On a busier machine a frame's lateness is mostly the wait for
/// a CPU, which no daemon can remove; the soak then fails when the frames' 99th percentile
/// exceeds the probe's by more than the limit: the lateness the daemon adds on top of the
/// machine's.
public struct LatenessJudgement: Equatable, Sendable {
  public let frames: LatenessHistogram
  public let wakeUps: LatenessHistogram
  public let limit: Double
  /// The frames later than the limit, as spans (a report keeps a bounded number: frames late
  /// beyond those kept are never explained).
  public let lateSpans: [LateSpan]
  /// The probe's wake-ups later than ``stallFloor``, sorted by when they were due.
  public let stalls: [LateSpan]

  /// The probe records its wake-ups later than this as stalls, a tenth of the soak's limit.
  public static let stallFloor = SoakLimits.lateFrameSeconds / 10

  public init(
    frames: LatenessHistogram, wakeUps: LatenessHistogram, limit: Double,
    lateSpans: [LateSpan] = [], stalls: [LateSpan] = []
  ) {
    self.frames = frames
    self.wakeUps = wakeUps
    self.limit = limit
    self.lateSpans = lateSpans
    self.stalls = stalls.sorted { $0.due < $1.due }
  }

  /// True when the machine was quiet: the probe's wake-ups within the stall floor at the 99th
  /// percentile and within the limit at the 99.9th. Then a late frame counts unless the
  /// probe's stalls explain it; on a busier machine (one wake-up in a hundred waiting for a
  /// CPU) the frames' wait has two processes' wake-ups in it to the probe's one, and only the
  /// daemon's share is judged.
  public var machineKeptUp: Bool {
    wakeUps.percentile(0.99) <= Self.stallFloor && wakeUps.percentile(0.999) <= limit
  }

  /// Frames later than the limit.
  public var lateFrames: Int { frames.count(laterThan: limit) }

  /// Late frames still later than the limit once the probe's stalls during their wait are
  /// taken off: the daemon's.
  public var unexplainedLateFrames: Int {
    let explained = lateSpans.filter { $0.lateness - $0.covered(by: stalls) <= limit }.count
    return max(0, lateFrames - explained)
  }

  /// The frames' 99th percentile beyond the probe's.
  public var addedLateness: Double { frames.percentile(0.99) - wakeUps.percentile(0.99) }

  /// Why the soak fails on lateness, or nil when it does not.
  public var failure: String? {
    let milliseconds = { (seconds: Double) in "\(Int((seconds * 1000).rounded())) ms" }
    if frames.total == 0 { return "no healthy subscriber got a frame" }
    if machineKeptUp {
      let unexplained = unexplainedLateFrames
      guard unexplained > 0 else { return nil }
      return "\(unexplained) frames reached a healthy subscriber more than \(milliseconds(limit)) "
        + "late, beyond what the machine's own stalls explain"
    }
    guard addedLateness > limit else { return nil }
    return "healthy subscribers' frames were \(milliseconds(frames.percentile(0.99))) late (p99), "
      + "\(milliseconds(addedLateness)) more than the machine's own wake-ups "
      + "(\(milliseconds(wakeUps.percentile(0.99))), p99): over the limit of \(milliseconds(limit))"
  }
}
