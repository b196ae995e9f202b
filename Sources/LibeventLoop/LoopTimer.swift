import CLibevent
import UnixIO

/// A one-shot or repeating timer on an ``EventLoop``, measured on the monotonic clock.
///
/// Scheduling replaces any earlier schedule, and is cheap enough to do every frame (it moves
/// one entry in libevent's timer heap). The callback runs on the loop. A scheduled timer
/// keeps itself alive until it fires (one-shot) or is cancelled (repeating), so it can be
/// created and forgotten; once idle it is freed with its last reference.
///
/// ```swift
/// let tick = try LoopTimer(loop: loop) { renderFrame() }
/// tick.scheduleRepeating(every: 1.0 / 240)
/// ```
public final class LoopTimer {
  /// The loop the timer runs on.
  public let loop: EventLoop
  /// The monotonic time (``EventLoop/now``) of the next firing; nil when not scheduled.
  public private(set) var deadline: Double?
  /// The repeat interval in seconds while a repeating schedule is active; nil otherwise.
  public private(set) var repeatInterval: Double?

  private let event: OpaquePointer
  private let callback: () -> Void
  private var registration: Unmanaged<LoopTimer>?

  /// The shortest repeat interval: one microsecond (libevent's timer resolution).
  public static let minimumRepeatInterval = 1e-6

  /// Creates an idle timer.
  ///
  /// - Parameters:
  ///   - loop: The loop to run on.
  ///   - callback: Runs on the loop each time the timer fires.
  /// - Throws: ``SystemError`` when libevent cannot allocate the event.
  public init(loop: EventLoop, _ callback: @escaping () -> Void) throws(SystemError) {
    self.loop = loop
    self.callback = callback
    // The context is filled in below, once `self` exists.
    guard
      let event = clibevent_evtimer_new(
        loop.base,
        { _, _, context in
          guard let context else { return }
          let timer = Unmanaged<LoopTimer>.fromOpaque(context).takeUnretainedValue()
          withExtendedLifetime(timer) { timer.fire() }
        }, nil)
    else {
      throw SystemError(errno: ENOMEM, function: "evtimer_new")
    }
    self.event = event
    _ = event_assign(
      event, loop.base, -1, 0, event_get_callback(event),
      Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    // Never pending here: a pending timer holds a reference to itself.
    event_free(event)
  }

  /// True while the timer is scheduled to fire.
  public var isScheduled: Bool { deadline != nil }

  /// Fires once, `delay` seconds from now; replaces any earlier schedule.
  ///
  /// - Parameter delay: Seconds from now; negative or NaN means as soon as possible.
  public func schedule(after delay: Double) {
    let delay = delay.isNaN ? 0 : max(delay, 0)
    repeatInterval = nil
    arm(deadline: loop.now + delay, delay: delay)
  }

  /// Fires once at the monotonic time `deadline` (as ``EventLoop/now``); replaces any
  /// earlier schedule. A deadline in the past fires on the loop's next iteration.
  ///
  /// - Parameter deadline: Monotonic time in seconds.
  public func schedule(at deadline: Double) {
    repeatInterval = nil
    let now = loop.now
    let deadline = deadline.isNaN ? now : deadline
    arm(deadline: deadline, delay: deadline - now)
  }

  /// Fires every `interval` seconds until cancelled; replaces any earlier schedule.
  ///
  /// Firings stay on the grid `first + k × interval` with no drift. When the loop falls
  /// behind, missed firings are skipped (the callback runs once, then at the next grid time
  /// still in the future), so a slow callback never causes a burst.
  ///
  /// - Parameters:
  ///   - interval: Seconds between firings; values below ``minimumRepeatInterval`` (or NaN)
  ///     are raised to it.
  ///   - first: Monotonic time of the first firing; default one interval from now.
  public func scheduleRepeating(every interval: Double, startingAt first: Double? = nil) {
    let interval =
      interval.isNaN ? Self.minimumRepeatInterval : max(interval, Self.minimumRepeatInterval)
    let now = loop.now
    let deadline = first.flatMap { $0.isNaN ? nil : $0 } ?? now + interval
    repeatInterval = interval
    arm(deadline: deadline, delay: deadline - now)
  }

  /// Stops the timer; it will not fire until scheduled again. Safe to call when idle and
  /// from the timer's own callback.
  public func cancel() {
    guard let registration else { return }
    _ = clibevent_evtimer_del(event)
    deadline = nil
    repeatInterval = nil
    self.registration = nil
    loop.scheduledTimerCount -= 1
    registration.release()
  }

  private func arm(deadline: Double, delay: Double) {
    var timeout = MonotonicClock.timeval(forDelay: delay)
    if clibevent_evtimer_add(event, &timeout) != 0 {
      // Only an allocation failure in libevent's heap gets here: leave the timer idle.
      cancel()
      return
    }
    self.deadline = deadline
    if registration == nil {
      registration = Unmanaged.passRetained(self)
      loop.scheduledTimerCount += 1
    }
  }

  private func fire() {
    guard let deadline else { return }
    if let interval = repeatInterval {
      let now = loop.now
      var next = deadline + interval
      if next <= now { next += ((now - next) / interval).rounded(.down) * interval + interval }
      arm(deadline: next, delay: next - now)
    } else {
      self.deadline = nil
      if let registration {
        self.registration = nil
        loop.scheduledTimerCount -= 1
        registration.release()
      }
    }
    callback()
  }
}

@available(*, unavailable) extension LoopTimer: Sendable {}
