/// Which recorded frame each output frame shows: output frame k is at `start + k / rate`, from
/// `start` to `end` (both within the recording), and shows the last recorded frame at or before
/// that instant (the one on screen then), so that a rate above the recording's repeats frames
/// and one below it skips them, and the same inputs always pick the same frames.
public struct FrameSchedule: Equatable, Sendable {
  /// For each output frame, the index of the recorded frame it shows.
  public let frames: [Int]

  /// Instants closer than this count as equal (frame times are written with rounding).
  static let tolerance = 1e-6

  /// The schedule for recorded frames at `instants` (seconds, ascending), played at `rate`
  /// frames a second from `start` to `end` seconds after the first frame (nil: its ends).
  public init(instants: [Double], rate: Double, start: Double?, end: Double?) {
    guard let first = instants.first, let last = instants.last, rate > 0 else {
      frames = []
      return
    }
    let from = first + max(0, start ?? 0)
    let to = min(last, end.map { first + $0 } ?? last)
    var frames: [Int] = []
    var index = 0
    var k = 0
    while true {
      let instant = from + Double(k) / rate
      if instant > to + Self.tolerance { break }
      while index + 1 < instants.count, instants[index + 1] <= instant + Self.tolerance {
        index += 1
      }
      frames.append(index)
      k += 1
    }
    if frames.isEmpty, from <= last + Self.tolerance {
      // start == end past the last instant's rounding: one frame, the one on screen.
      frames.append(instants.lastIndex { $0 <= from + Self.tolerance } ?? 0)
    }
    self.frames = frames
  }
}
