import FrameStreaming
import Glibc
import LibeventLoop
import TransitionServer

/// The server core's clock on the daemon's libevent loop: `CLOCK_MONOTONIC`, and
/// ``LoopTimer``s for its timers.
final class LoopClock: ServerClock {
  let loop: EventLoop
  /// Where a timer libevent cannot create is reported; the daemon sets it once its logger,
  /// which reads this clock, exists.
  weak var logger: Logger?

  init(loop: EventLoop) {
    self.loop = loop
  }

  var now: Double { loop.now }

  /// A millisecond: how late a libevent timer wakes on a busy machine, within reason.
  var timerSlack: Double { 1e-3 }

  /// Every scheduled ``LoopTimer`` of the daemon's loop: the core's, the plugin host
  /// supervisor's, the viewer listener's.
  var scheduledTimerCount: Int { loop.scheduledTimerCount }

  func yieldProcessor() {
    sched_yield()
  }

  func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer {
    do {
      return try LoopTimer(loop: loop, fire)
    } catch {
      // Only an allocation failure in libevent gets here; the timer then never fires.
      logger?.error("cannot create a timer: \(error)")
      return UnavailableTimer()
    }
  }
}

extension LoopTimer: ServerTimer {}

/// A timer that libevent could not create: scheduling it does nothing.
private final class UnavailableTimer: ServerTimer {
  var isScheduled: Bool { false }
  func schedule(at deadline: Double) {}
  func cancel() {}
}

@available(*, unavailable) extension LoopClock: Sendable {}
