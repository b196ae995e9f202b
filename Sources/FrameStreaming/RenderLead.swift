/// How long before its deadline a ``FrameClock`` starts rendering a tick, so that the tick's
/// frames are ready when the deadline comes (docs/architecture.md, "The frame clock").
///
/// The lead follows the recent render durations: it rises at once to a longer render and
/// decays slowly (a twentieth of the difference a tick) after shorter ones, so one quick tick
/// does not make the next, slower one late. It is twice the estimate (a render the machine
/// interrupts takes longer than its CPU time), plus the clock's timer slack, and never more
/// than one frame period (one tick renders at a time).
struct RenderLead {
  /// The frame period, in seconds: the most the lead can be.
  let period: Double
  /// How late the clock's timers may fire (``ServerClock/timerSlack``).
  let timerSlack: Double
  /// The recent render duration: the longest, decaying.
  private(set) var estimate = 0.0

  /// A lead for ticks of `period`, its estimate starting from `estimate` (a clock taking over
  /// from another: ``FrameClocks``).
  init(period: Double, timerSlack: Double, estimate: Double = 0) {
    self.period = period
    self.timerSlack = max(timerSlack, 0)
    self.estimate = estimate.isFinite ? max(estimate, 0) : 0
  }

  /// Seconds before a deadline to start rendering it.
  var seconds: Double {
    min(period, estimate * 2 + timerSlack)
  }

  /// Records that rendering one tick took `duration` seconds (from its first stream to its
  /// last, with whatever the loop ran in between).
  mutating func record(_ duration: Double) {
    guard duration.isFinite, duration >= 0 else { return }
    estimate = duration >= estimate ? duration : estimate + (duration - estimate) / 20
  }
}
