/// The frame path's counters, which its streams and clocks keep and the server's `stats` op
/// reports (docs/protocol.md, "stats"). Updated on the core's thread.
public final class FrameStreamStats {
  /// Frames of wall-clock streams evaluated and encoded: once a frame however many
  /// subscribers take it, and none for a tick that no subscriber can take.
  public var framesRendered = 0
  /// Frame clock ticks rendered, and of those the ones whose render ended after their
  /// deadline (their frames left late).
  public var ticksRendered = 0
  public var ticksLate = 0
  /// Streams' deadlines a tick left out because their uid had spent its share of render time
  /// (``RenderShares``).
  public var framesDeferred = 0

  public init() {}
}

@available(*, unavailable) extension FrameStreamStats: Sendable {}
