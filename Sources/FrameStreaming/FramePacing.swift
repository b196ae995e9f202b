/// How a wall-clock stream's frames are timed (docs/architecture.md, "The frame clock"):
/// on the daemon's grid of a frame rate, or on a subscriber's display.
public enum FramePacing: Hashable, Sendable {
  /// `fps` frames a second on the daemon's own grid, each sent at the instant it shows.
  case grid(fps: Double)
  /// One frame a vblank of the display, evaluated for the vblank and sent its lead before it.
  case display(DisplayTiming)

  /// Frames a second.
  public var fps: Double {
    switch self {
    case .grid(let fps): return fps
    case .display(let timing): return 1 / timing.period
    }
  }

  /// The display timing, for a display-paced stream.
  public var display: DisplayTiming? {
    guard case .display(let timing) = self else { return nil }
    return timing
  }

  /// The instant a frame rendered at `now` outside the clock's ticks shows (a first
  /// subscriber, a control op): `now` on the grid, the first vblank at or after `now` on a
  /// display.
  public func showTime(at now: Double) -> Double {
    switch self {
    case .grid: return now
    case .display(let timing): return timing.vblank(atOrAfter: now)
    }
  }
}
