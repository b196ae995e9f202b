/// The frames a display-paced subscription was sent lately, each with the vblank it was
/// evaluated for, so that a `presented` report can be checked and timed
/// (docs/protocol.md, "presented").
///
/// It keeps the last ``capacity`` frames as runs: frames of one session sent one after
/// another, `seq` counting up by one and each showing the vblank a period after the one
/// before, are one run, so that logging the frame of a stream in step only counts it on (a
/// log of 64 slots written in turn cost a cache miss or two a frame, 4 % of the daemon's
/// time at 1,000 × 144 Hz: `perf` during `transition-bench display --refresh 144`). A vblank
/// is kept to within ``vblankTolerance``. A report names a frame among them that it has not
/// reported yet, or it is refused. Each frame is taken once, so the reports a subscription
/// can make are bounded by the frames it was sent.
struct SentFrameLog {
  /// How many frames the log remembers: about half a second at 120 Hz.
  static let capacity = 64
  /// How far a frame's vblank may lie from its run's line, in seconds, and still count on
  /// the run: further starts a run of its own.
  static let vblankTolerance = 1e-6

  /// Frames of one session sent in a row: frame `firstSeq + k` showed `firstVblank + k ×
  /// period`, for k below `count` (at most 64, one bit each of `reported`).
  private struct Run {
    var session: String
    var firstSeq: Int
    var count: Int
    /// Nil for a frame that shows no vblank (a final frame), which is a run alone.
    var firstVblank: Double?
    /// Nil until the run's second frame.
    var period: Double?
    /// Bit k: frame `firstSeq + k` was reported.
    var reported: UInt64 = 0

    func vblank(_ k: Int) -> Double? {
      firstVblank.map { $0 + Double(k) * (period ?? 0) }
    }

    /// Counts frame `seq` of `session`, showing `vblank`, on the run when it is the next of
    /// it; false otherwise.
    mutating func extend(session: String, seq: Int, vblank: Double?) -> Bool {
      guard seq == firstSeq + count, count < UInt64.bitWidth, let vblank, let first = firstVblank,
        session == self.session
      else { return false }
      guard let period else {
        guard vblank > first else { return false }
        self.period = vblank - first
        count = 2
        return true
      }
      guard abs(first + Double(count) * period - vblank) <= SentFrameLog.vblankTolerance else {
        return false
      }
      count += 1
      return true
    }

    /// Forgets the oldest frame.
    mutating func dropFirst() {
      firstVblank = vblank(1)
      firstSeq += 1
      count -= 1
      reported >>= 1
    }
  }

  /// Why a report is refused.
  enum Refusal: Error, Equatable {
    /// No frame of that session and seq among the last ``capacity`` sent.
    case neverSent
    /// That frame was reported already.
    case alreadyReported
  }

  /// The runs, oldest first.
  private var runs: [Run] = []
  /// How many frames the runs hold.
  private(set) var count = 0

  /// Records that frame `seq` of `session`, evaluated for `vblank` (nil: a frame showing no
  /// vblank), was sent.
  mutating func sent(session: String, seq: Int, vblank: Double?) {
    let last = runs.count - 1
    if last < 0 || !runs[last].extend(session: session, seq: seq, vblank: vblank) {
      runs.append(Run(session: session, firstSeq: seq, count: 1, firstVblank: vblank))
    }
    count += 1
    guard count > Self.capacity else { return }
    runs[0].dropFirst()
    if runs[0].count == 0 { runs.removeFirst() }
    count -= 1
  }

  /// Takes the report of frame `seq` of `session`: the vblank it was evaluated for (the
  /// latest such frame, should a seq repeat; nil for one showing none), which is then marked
  /// reported.
  mutating func report(session: String, seq: Int) -> Result<Double?, Refusal> {
    // Newest first.
    for index in runs.indices.reversed() {
      let k = seq - runs[index].firstSeq
      guard k >= 0, k < runs[index].count, runs[index].session == session else { continue }
      let bit: UInt64 = 1 << UInt64(k)
      guard runs[index].reported & bit == 0 else { return .failure(.alreadyReported) }
      runs[index].reported |= bit
      return .success(runs[index].vblank(k))
    }
    return .failure(.neverSent)
  }
}
