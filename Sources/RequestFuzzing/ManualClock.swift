import TransitionServer

/// A ``TransitionServer/ServerClock`` that moves only when told: due timers fire in deadline
/// order, each seeing its own deadline as the current time, as the daemon's loop would run
/// them on a machine that is never late.
final class ManualClock: ServerClock {
  private(set) var now: Double
  /// Like the daemon's loop, so that the frame clock renders ahead and holds its output.
  let timerSlack = 0.001
  private var timers: [ManualTimer] = []

  init(now: Double) {
    self.now = now
  }

  var scheduledTimerCount: Int { timers.count(where: \.isScheduled) }

  func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer {
    let timer = ManualTimer(fire)
    timers.append(timer)
    return timer
  }

  /// Moves to `time`, firing every timer due by then, earliest first, and calling
  /// `afterEach` after each one.
  ///
  /// - Returns: False when more than `maximumFirings` fired (a timer that reschedules itself
  ///   without end).
  func advance(to time: Double, maximumFirings: Int, afterEach: () -> Void) -> Bool {
    var firings = 0
    while let next = timers.filter({ ($0.deadline ?? .infinity) <= time }).min(by: {
      $0.deadline! < $1.deadline!
    }) {
      firings += 1
      if firings > maximumFirings { return false }
      now = max(now, next.deadline!)
      next.fire()
      afterEach()
    }
    now = max(now, time)
    return true
  }
}

/// A timer of ``ManualClock``.
final class ManualTimer: ServerTimer {
  private(set) var deadline: Double?
  private let callback: () -> Void

  init(_ callback: @escaping () -> Void) {
    self.callback = callback
  }

  var isScheduled: Bool { deadline != nil }
  func schedule(at deadline: Double) { self.deadline = deadline.isNaN ? 0 : deadline }
  func cancel() { deadline = nil }

  func fire() {
    deadline = nil
    callback()
  }
}
