import CLibevent
import Glibc
import UnixIO

/// A single-threaded event loop over one libevent `event_base`.
///
/// The loop and every object registered on it (``LoopTimer``, ``SignalWatcher``,
/// ``UnixListener``, ``Connection``) belong to the thread that created the loop: create,
/// use and release them there only. None of them is `Sendable`.
///
/// The base is created with `EVENT_BASE_FLAG_PRECISE_TIMER` (timerfd under epoll, so timers
/// are not rounded to milliseconds) and without time caching, so a timer scheduled from a
/// callback counts from the real current time. Creating a loop ignores `SIGPIPE` for the
/// whole process: a write to a closed peer then fails with `EPIPE` instead of killing it.
///
/// Registered objects keep a strong reference to their loop, and keep themselves alive
/// while registered; the loop is freed once every object on it is closed or cancelled and
/// released.
public final class EventLoop {
  /// The underlying `struct event_base *`.
  let base: OpaquePointer
  private var lastConnectionID: UInt64 = 0
  /// Runs ``flushTransports()`` once the callbacks already running or ready have run: an
  /// event without a descriptor, made active by hand (`event_active`), never added.
  private var flushEvent: OpaquePointer?
  /// Transports with output written during this iteration, to be sent in one write each.
  private var transportsToFlush: [any EndOfTurnFlushing] = []
  /// How many ``LoopTimer``s of this loop are scheduled now (one-shot or repeating): what a
  /// soak watches for timers that pile up (docs/protocol.md, `stats.timers`).
  public internal(set) var scheduledTimerCount = 0

  /// Creates a loop with its own `event_base`.
  ///
  /// - Throws: ``SystemError`` when libevent cannot create the base.
  public init() throws(SystemError) {
    _ = signal(SIGPIPE, SIG_IGN)
    guard let config = event_config_new() else {
      throw SystemError(errno: ENOMEM, function: "event_config_new")
    }
    defer { event_config_free(config) }
    let flags = EVENT_BASE_FLAG_PRECISE_TIMER.rawValue | EVENT_BASE_FLAG_NO_CACHE_TIME.rawValue
    _ = event_config_set_flag(config, Int32(flags))
    guard let base = event_base_new_with_config(config) else {
      throw SystemError(errno: Glibc.errno, function: "event_base_new_with_config")
    }
    self.base = base
  }

  deinit {
    if let flushEvent { event_free(flushEvent) }
    event_base_free(base)
  }

  /// The name of libevent's back end, such as `"epoll"`.
  public var backendName: String {
    guard let name = event_base_get_method(base) else { return "unknown" }
    return String(cString: name)
  }

  /// Runs the loop until ``stop()`` is called from one of its callbacks.
  ///
  /// The loop keeps running when nothing is registered (it then waits for nothing until
  /// stopped), so call ``stop()`` to return.
  ///
  /// - Throws: ``SystemError`` when the back end fails (for example `epoll_wait` errors).
  public func run() throws(SystemError) {
    let result = event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
    if result < 0 { throw SystemError(errno: Glibc.errno, function: "event_base_loop") }
  }

  /// Runs one iteration: waits for at least one event (unless `blocking` is false), runs the
  /// callbacks of every event that is ready, and returns.
  ///
  /// Useful for driving the loop step by step, as tests do.
  ///
  /// - Parameter blocking: When false, only events already ready are handled.
  /// - Returns: False when nothing is registered on the loop (so a blocking step would
  ///   return at once), true otherwise.
  /// - Throws: ``SystemError`` when the back end fails.
  @discardableResult
  public func runOnce(blocking: Bool = true) throws(SystemError) -> Bool {
    let flags = blocking ? EVLOOP_ONCE : (EVLOOP_ONCE | EVLOOP_NONBLOCK)
    let result = event_base_loop(base, flags)
    if result < 0 { throw SystemError(errno: Glibc.errno, function: "event_base_loop") }
    return result == 0
  }

  /// Makes ``run()`` return once the callback now running returns (`event_base_loopbreak`).
  ///
  /// Call it from a callback on this loop; a call made while the loop is not running is
  /// forgotten when ``run()`` starts.
  public func stop() {
    _ = event_base_loopbreak(base)
  }

  /// Makes ``run()`` return `delay` seconds from now, after the callbacks then ready have run
  /// (`event_base_loopexit`): a deadline for work that ends the loop earlier with ``stop()``.
  public func stop(after delay: Double) {
    var timeout = MonotonicClock.timeval(forDelay: delay)
    _ = event_base_loopexit(base, &timeout)
  }

  /// The current time on the monotonic clock (`CLOCK_MONOTONIC`), in seconds.
  ///
  /// This is the time base of ``LoopTimer/schedule(at:)``.
  public var now: Double { MonotonicClock.seconds() }

  /// The current time on the monotonic clock (`CLOCK_MONOTONIC`), in seconds, without a loop.
  public static func monotonicNow() -> Double { MonotonicClock.seconds() }

  /// Has `transport` flush its output once the callbacks of this loop iteration have run, so
  /// that everything written to it in one iteration (one frame clock tick, one request's
  /// reply and frame) leaves in one write. A transport asks once an iteration.
  func scheduleFlush(_ transport: any EndOfTurnFlushing) {
    if flushEvent == nil {
      flushEvent = event_new(
        base, -1, 0,
        { _, _, context in
          guard let context else { return }
          Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().flushTransports()
        }, Unmanaged.passUnretained(self).toOpaque())
    }
    guard let flushEvent else {
      // Only an allocation failure gets here: flush at once instead.
      return transport.endOfTurn()
    }
    if transportsToFlush.isEmpty { event_active(flushEvent, 0, 0) }
    transportsToFlush.append(transport)
  }

  private func flushTransports() {
    let transports = transportsToFlush
    transportsToFlush = []
    for transport in transports { transport.endOfTurn() }
  }

  /// The next connection id: 1, 2, 3, … in order of creation on this loop (Unix connections
  /// and HTTP event streams share the sequence, so peer ids never collide).
  public func makeConnectionID() -> UInt64 {
    lastConnectionID += 1
    return lastConnectionID
  }
}

@available(*, unavailable) extension EventLoop: Sendable {}
