/// Which recorded frame each output frame shows: output frame k is at `start + k / rate`, from
/// `start` to `end` (both within the recording), and shows the last recorded frame at or before
/// that instant (the one on screen then), so that a rate above the recording's repeats frames
/// and one below it skips them, and the same inputs always pick the same frames. When the grid
/// misses the frame on screen at `end`, one more output frame shows it: a clip always ends on
/// its last state.
public struct FrameSchedule: Equatable, Sendable {
  /// For each output frame, the index of the recorded frame it shows.
  public let frames: [Int]

  /// Instants closer than this count as equal (frame times are written with rounding).
  static let tolerance = 1e-6

  /// The schedule for recorded frames at `instants` (seconds, ascending), played at `rate`
  /// frames a second from `start` to `end` seconds after the first frame (nil: its ends), then
  /// the last frame held `hold` seconds more (whole output frames, rounded).
  public init(instants: [Double], rate: Double, start: Double?, end: Double?, hold: Double = 0) {
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
    // The clip ends on the frame on screen at its end, even off the output's grid (the
    // virtual clock's last frame is at the transition's end, which 1/rate may not divide).
    if from <= to + Self.tolerance,
      let final = instants.lastIndex(where: { $0 <= to + Self.tolerance }),
      frames.last != final
    {
      frames.append(final)
    }
    if let last = frames.last, hold > 0 {
      frames += Array(repeating: last, count: Int((hold * rate).rounded()))
    }
    self.frames = frames
  }
}
