@testable import TransitionServer

/// A ``ServerClock`` that moves only when a test advances it; due timers fire in deadline
/// order, each seeing its own deadline as the current time.
final class FakeClock: ServerClock {
  private var current: Double
  /// Seconds each read of ``now`` moves the clock on, as work between two reads would.
  var secondsPerRead = 0.0
  private var timers: [FakeTimer] = []
  /// How late every timer fires after its deadline, as a busy loop would.
  var lateness = 0.0
  /// What the clock reports as its timers' slack (the frame clock's least render lead).
  var timerSlack = 0.0

  init(now: Double = 1_000) {
    current = now
  }

  var now: Double {
    current += secondsPerRead
    return current
  }

  func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer {
    let timer = FakeTimer(fire)
    timers.append(timer)
    return timer
  }

  /// Timers scheduled now.
  var scheduledTimers: [FakeTimer] { timers.filter(\.isScheduled) }
  var scheduledTimerCount: Int { scheduledTimers.count }

  /// Moves to `time`, firing every timer due by then, earliest first.
  func advance(to time: Double) {
    while let next = timers.filter({ ($0.deadline ?? .infinity) + lateness <= time }).min(by: {
      $0.deadline! < $1.deadline!
    }) {
      current = max(current, next.deadline! + lateness)
      next.fire()
    }
    current = max(current, time)
  }

  /// Moves `seconds` ahead.
  func advance(by seconds: Double) {
    advance(to: now + seconds)
  }
}

/// A timer of ``FakeClock``.
final class FakeTimer: ServerTimer {
  private(set) var deadline: Double?
  private let callback: () -> Void

  init(_ callback: @escaping () -> Void) {
    self.callback = callback
  }

  var isScheduled: Bool { deadline != nil }
  func schedule(at deadline: Double) { self.deadline = deadline }
  func cancel() { deadline = nil }

  func fire() {
    deadline = nil
    callback()
  }
}
