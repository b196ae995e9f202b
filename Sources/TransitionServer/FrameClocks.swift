/// The frame clocks by frame rate: one per rate in use, created on demand and dropped when
/// its last stream leaves.
final class FrameClocks {
  private let clock: ServerClock
  private let stats: ServerStats
  private var clocks: [Double: FrameClock] = [:]
  /// The render time every clock shares out by uid.
  let shares = RenderShares()

  init(clock: ServerClock, stats: ServerStats) {
    self.clock = clock
    self.stats = stats
  }

  /// Adds `stream` to the clock of its rate.
  func add(_ stream: FrameStream) {
    let frameClock =
      clocks[stream.fps] ?? FrameClock(fps: stream.fps, clock: clock, stats: stats, shares: shares)
    clocks[stream.fps] = frameClock
    frameClock.add(stream)
  }

  /// Takes `stream` out of the clock of its rate.
  func remove(_ stream: FrameStream) {
    guard let frameClock = clocks[stream.fps] else { return }
    frameClock.remove(stream)
    if frameClock.streams.isEmpty { clocks[stream.fps] = nil }
  }

  /// The clock of `fps`, while it has streams.
  subscript(fps: Double) -> FrameClock? { clocks[fps] }

  /// Stops every clock (shutdown); what they hold for a deadline is sent now.
  func removeAll() {
    for frameClock in clocks.values {
      for stream in frameClock.streams { frameClock.remove(stream) }
      frameClock.releaseHeldOutput()
    }
    clocks = [:]
  }
}

@available(*, unavailable) extension FrameClocks: Sendable {}
