/// The frame clocks by pacing: one per frame rate and per display timing in use, created on
/// demand and dropped when its last stream leaves.
public final class FrameClocks {
  private let clock: ServerClock
  /// The frame path's counters, which the clocks and their streams keep.
  public let stats: FrameStreamStats
  private var clocks: [FramePacing: FrameClock] = [:]
  /// The render duration a new display clock's lead starts from: that of the display clock
  /// last dropped. A display's timing changes often (variable refresh: every retime is a new
  /// clock), and a clock starting from nothing would render its first ticks late.
  private var displayRenderEstimate = 0.0
  /// The render time every clock shares out by uid.
  public let shares = RenderShares()
  /// The longest a clock's render runs before the loop serves its other events, for clocks
  /// created from now on (``FrameClock/sliceSeconds``).
  public var sliceSeconds = FrameClock.defaultSliceSeconds

  public init(clock: ServerClock, stats: FrameStreamStats) {
    self.clock = clock
    self.stats = stats
  }

  /// Adds `stream` to the clock of its pacing; a display clock sends its frames after
  /// `sendsAfter` (``FrameClock/add(_:sendsAfter:)``).
  func add(_ stream: FrameStream, sendsAfter: Double?) {
    let frameClock =
      clocks[stream.pacing]
      ?? FrameClock(
        pacing: stream.pacing, clock: clock, stats: stats, shares: shares,
        sliceSeconds: sliceSeconds,
        renderEstimate: stream.pacing.display == nil ? 0 : displayRenderEstimate)
    clocks[stream.pacing] = frameClock
    frameClock.add(stream, sendsAfter: sendsAfter)
  }

  /// Takes `stream` out of the clock it ticks on; that clock is forgotten once it has no
  /// stream left, and only while it is still the clock of its rate.
  ///
  /// A stream leaving can send (a held tick released), the send can close a client, and the
  /// close can take other streams off and put others on, all before this returns: so the clock
  /// is the stream's own, never looked up by rate, and emptiness is checked on that clock. (The
  /// soak found the other way: a clock forgotten while it still held a stream, whose session
  /// then completed without leaving it, and the clock's render read the freed session.)
  public func remove(_ stream: FrameStream) {
    guard let frameClock = stream.tickingClock else { return }
    frameClock.remove(stream)
    if frameClock.isEmpty, clocks[stream.pacing] === frameClock {
      clocks[stream.pacing] = nil
      if stream.pacing.display != nil { displayRenderEstimate = frameClock.lead.estimate }
    }
  }

  /// Runs `render`, a frame rendered outside the clocks' ticks (one a subscriber joining,
  /// asking `resync` or owed after coalescing is sent), and charges the time it took to
  /// `owner`'s share (``RenderShares``), as a tick's renders are.
  func charging(_ owner: RenderShares.Owner, _ render: () -> Void) {
    shares.charging(owner, on: clock, render)
  }

  /// The grid clock of `fps`, while it has streams.
  public subscript(fps: Double) -> FrameClock? { clocks[.grid(fps: fps)] }

  /// The clock of `pacing`, while it has streams.
  public subscript(pacing: FramePacing) -> FrameClock? { clocks[pacing] }

  /// The number of clocks with streams.
  public var count: Int { clocks.count }

  /// Stops every clock (shutdown); what they hold for a deadline is sent now.
  public func removeAll() {
    for frameClock in clocks.values {
      for stream in frameClock.streams { frameClock.remove(stream) }
      frameClock.releaseHeldOutput()
    }
    clocks = [:]
  }
}

@available(*, unavailable) extension FrameClocks: Sendable {}
