/// The frames a display-paced subscription was sent lately, each with the vblank it was
/// evaluated for, so that a `presented` report can be checked and timed
/// (docs/protocol.md, "presented").
///
/// A ring of the last ``capacity`` frames, its slots allocated once, at the first frame, and
/// written over in turn: logging a frame allocates nothing and never grows the log. A report
/// names a frame among them that it has not reported yet, or it is refused. Each frame is
/// taken once, so the reports a subscription can make are bounded by the frames it was sent.
struct SentFrameLog {
  /// How many frames the log remembers: about half a second at 120 Hz.
  static let capacity = 64

  private struct Entry {
    var session: String
    var seq: Int
    /// Nil for a frame that shows no vblank (a final frame).
    var vblank: Double?
    var reported: Bool

    static let empty = Entry(session: "", seq: -1, vblank: nil, reported: true)
  }

  /// Why a report is refused.
  enum Refusal: Error, Equatable {
    /// No frame of that session and seq among the last ``capacity`` sent.
    case neverSent
    /// That frame was reported already.
    case alreadyReported
  }

  /// The ring's ``capacity`` slots (none before the first frame); the first ``count`` after
  /// `next`, going back, hold the newest frames.
  private var slots: [Entry] = []
  /// The slot the next frame is written to.
  private var next = 0
  /// How many slots hold a frame.
  private(set) var count = 0

  /// Records that frame `seq` of `session`, evaluated for `vblank` (nil: a frame showing no
  /// vblank), was sent.
  mutating func sent(session: String, seq: Int, vblank: Double?) {
    if slots.isEmpty { slots = Array(repeating: .empty, count: Self.capacity) }
    slots[next] = Entry(session: session, seq: seq, vblank: vblank, reported: false)
    next = next + 1 == Self.capacity ? 0 : next + 1
    count = min(count + 1, Self.capacity)
  }

  /// Takes the report of frame `seq` of `session`: the vblank it was evaluated for (the
  /// latest such frame, should a seq repeat; nil for one showing none), which is then marked
  /// reported.
  mutating func report(session: String, seq: Int) -> Result<Double?, Refusal> {
    var found: Int?
    // Newest first: from the slot before `next` backwards.
    var index = next
    for _ in 0..<count {
      index = index == 0 ? Self.capacity - 1 : index - 1
      if slots[index].seq == seq, slots[index].session == session {
        found = index
        break
      }
    }
    guard let found else { return .failure(.neverSent) }
    guard !slots[found].reported else { return .failure(.alreadyReported) }
    slots[found].reported = true
    return .success(slots[found].vblank)
  }
}
