/// When a display-paced ``FrameClock`` wakes to render a frame (docs/performance.md, "Display
/// pacing"): on the coarsest of a few grids of the daemon's clock, shared by every display,
/// that has a point after the vblank before the frame's own and no later than the render's
/// start. The clocks of many displays of random phases then wake together, a few times a
/// period, rather than each on its own.
///
/// Only the render moves: the frame is still evaluated for its own vblank, and it leaves at
/// most ``coarsestGrid`` earlier than its render would have started, always after the vblank
/// before its own (which shows the frame before it). A render due before that vblank (a lead
/// longer than the period) starts when due.
public enum DisplayWakeTime {
  /// The grids a wake may fall on, coarsest first, in seconds: 8, 4, 2, 1 and 0.5 ms.
  public static let grids: [Double] = [0.008, 0.004, 0.002, 0.001, 0.000_5]
  /// The coarsest grid: the most a frame leaves earlier than its render would have started.
  public static var coarsestGrid: Double { grids[0] }

  /// The instant to wake for a render due to start at `renderStart`, whose frame shows the
  /// vblank after `previousVblank`: the latest point at or before `renderStart` of the
  /// coarsest grid that has one after `previousVblank`; `renderStart` itself when none has.
  public static func wake(renderStart: Double, after previousVblank: Double) -> Double {
    for step in grids {
      let point = (renderStart / step).rounded(.down) * step
      if point > previousVblank, point <= renderStart { return point }
    }
    return renderStart
  }
}
