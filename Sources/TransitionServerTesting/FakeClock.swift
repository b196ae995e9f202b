import FrameStreaming
import TransitionServer

/// A ``ServerClock`` that moves only when it is advanced: due timers fire in deadline order,
/// each seeing its own deadline (plus ``lateness``) as the current time, as the daemon's loop
/// runs them. The tests and the fuzzer drive the core with it.
public final class FakeClock: ServerClock {
  private var current: Double
  /// Seconds each read of ``now`` moves the clock on, as work between two reads would.
  public var secondsPerRead = 0.0
  /// How late every timer fires after its deadline, as a busy loop would.
  public var lateness = 0.0
  /// What the clock reports as its timers' slack (the frame clock's least render lead); the
  /// daemon's loop reports a millisecond.
  public var timerSlack = 0.0
  /// How many times the core has yielded the processor (``yieldProcessor()``).
  public private(set) var processorYields = 0
  private var timers: [FakeTimer] = []

  /// A clock that reads `now` seconds.
  public init(now: Double = 1_000) {
    current = now
  }

  public var now: Double {
    current += secondsPerRead
    return current
  }

  public func yieldProcessor() {
    processorYields += 1
  }

  public func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer {
    let timer = FakeTimer(fire)
    timers.append(timer)
    return timer
  }

  /// The timers scheduled now.
  public var scheduledTimers: [FakeTimer] { timers.filter(\.isScheduled) }
  public var scheduledTimerCount: Int { scheduledTimers.count }

  /// Moves to `time`, firing every timer due by then, earliest first, and running
  /// `afterEach` after each one.
  ///
  /// - Returns: False when more than `maximumFirings` fired (a timer that reschedules itself
  ///   without end); the clock then stands at the last one fired.
  @discardableResult
  public func advance(
    to time: Double, maximumFirings: Int = .max, afterEach: () -> Void = {}
  ) -> Bool {
    var firings = 0
    while let next = timers.filter({ ($0.deadline ?? .infinity) + lateness <= time }).min(by: {
      $0.deadline! < $1.deadline!
    }) {
      firings += 1
      if firings > maximumFirings { return false }
      current = max(current, next.deadline! + lateness)
      next.fire()
      afterEach()
    }
    current = max(current, time)
    return true
  }

  /// Moves `seconds` ahead, firing every timer due by then.
  public func advance(by seconds: Double) {
    advance(to: now + seconds)
  }
}

/// A timer of ``FakeClock``.
public final class FakeTimer: ServerTimer {
  /// When it fires; nil while idle.
  public private(set) var deadline: Double?
  private let callback: () -> Void

  init(_ callback: @escaping () -> Void) {
    self.callback = callback
  }

  public var isScheduled: Bool { deadline != nil }

  /// Schedules the timer; a deadline that is not a number fires at once, as one in the past.
  public func schedule(at deadline: Double) { self.deadline = deadline.isNaN ? 0 : deadline }

  public func cancel() { deadline = nil }

  /// Runs the timer's callback now, as its clock does at its deadline.
  public func fire() {
    deadline = nil
    callback()
  }
}

@available(*, unavailable) extension FakeClock: Sendable {}
@available(*, unavailable) extension FakeTimer: Sendable {}
