/// The frames a display-paced subscription was sent lately, each with the vblank it was
/// evaluated for, so that a `presented` report can be checked and timed
/// (docs/protocol.md, "presented").
///
/// A ring of the last ``capacity`` frames: a report names a frame among them that it has not
/// reported yet, or it is refused. Each frame is taken once, so the reports a subscription can
/// make are bounded by the frames it was sent.
struct SentFrameLog {
  /// How many frames the log remembers: about half a second at 120 Hz.
  static let capacity = 64

  private struct Entry {
    var session: String
    var seq: Int
    /// Nil for a frame that shows no vblank (a final frame).
    var vblank: Double?
    var reported: Bool
  }

  /// Why a report is refused.
  enum Refusal: Error, Equatable {
    /// No frame of that session and seq among the last ``capacity`` sent.
    case neverSent
    /// That frame was reported already.
    case alreadyReported
  }

  private var entries: [Entry] = []
  private var next = 0

  /// Records that frame `seq` of `session`, evaluated for `vblank` (nil: a frame showing no
  /// vblank), was sent.
  mutating func sent(session: String, seq: Int, vblank: Double?) {
    let entry = Entry(session: session, seq: seq, vblank: vblank, reported: false)
    if entries.count < Self.capacity {
      entries.append(entry)
    } else {
      entries[next] = entry
    }
    next = (next + 1) % Self.capacity
  }

  /// Takes the report of frame `seq` of `session`: the vblank it was evaluated for (the
  /// latest such frame, should a seq repeat; nil for one showing none), which is then marked
  /// reported.
  mutating func report(session: String, seq: Int) -> Result<Double?, Refusal> {
    var found: Int?
    // Newest first: from the slot before `next` backwards.
    for step in 0..<entries.count {
      let index = (next - 1 - step + 2 * Self.capacity) % Self.capacity
      guard index < entries.count else { continue }
      if entries[index].seq == seq, entries[index].session == session {
        found = index
        break
      }
    }
    guard let found else { return .failure(.neverSent) }
    guard !entries[found].reported else { return .failure(.alreadyReported) }
    entries[found].reported = true
    return .success(entries[found].vblank)
  }

  /// Forgets every frame (the subscription ended).
  mutating func removeAll() {
    entries.removeAll()
    next = 0
  }
}
