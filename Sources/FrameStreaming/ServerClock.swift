/// The view of time of the frame path and the server core: a monotonic clock and one-shot
/// timers on it (docs/architecture.md, "Threading and time").
///
/// The daemon implements it over libevent's timers; tests use a clock they advance by hand.
/// Timers fire on the core's thread, one at a time.
public protocol ServerClock: AnyObject {
  /// The current monotonic time in seconds.
  var now: Double { get }
  /// How late a timer of this clock may fire after its deadline, in seconds, when the
  /// machine is not overloaded: a frame clock starts rendering at least this much before a
  /// deadline, so that its frames are ready when it comes.
  var timerSlack: Double { get }
  /// How many timers are scheduled now, this clock's and any others of the same loop
  /// (`stats.timers.scheduled`, docs/protocol.md): bounded by the sessions and frame rates in
  /// use, so a count that only grows is a leak.
  var scheduledTimerCount: Int { get }
  /// A new idle timer that runs `fire` each time it expires.
  func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer
  /// Lets the other threads ready to run on this CPU go first (`sched_yield`): the frame
  /// clock calls it before each slice of a render after the first, so that a client woken by
  /// a reply written between two slices does not wait for the rest of the render. Returns at
  /// once when nothing else is ready.
  func yieldProcessor()
}

/// A one-shot timer of a ``ServerClock``.
public protocol ServerTimer: AnyObject {
  /// True while scheduled.
  var isScheduled: Bool { get }
  /// Fires once at monotonic `deadline` (a deadline in the past fires as soon as possible);
  /// replaces any earlier schedule.
  func schedule(at deadline: Double)
  /// Stops the timer; safe when idle and from its own callback.
  func cancel()
}
