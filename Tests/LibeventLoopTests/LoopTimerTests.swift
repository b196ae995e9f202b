import LibeventLoop
import Testing

@Suite struct LoopTimerTests {
  @Test func oneShotTimersFireInDeadlineOrder() throws {
    let loop = try EventLoop()
    var order: [Int] = []
    let start = loop.now
    let timers = try [3, 1, 2].map { number in
      let timer = try LoopTimer(loop: loop) { order.append(number) }
      timer.schedule(at: start + Double(number) * 0.002)
      return timer
    }
    try loop.pump(until: { order.count == 3 })
    #expect(order == [1, 2, 3])
    #expect(timers.allSatisfy { !$0.isScheduled })
  }

  @Test func timerNeverFiresBeforeItsDeadline() throws {
    let loop = try EventLoop()
    var firedAt: Double?
    let timer = try LoopTimer(loop: loop) { firedAt = loop.now }
    let deadline = loop.now + 0.003
    timer.schedule(at: deadline)
    #expect(timer.deadline == deadline)
    try loop.pump(until: { firedAt != nil })
    #expect(try #require(firedAt) >= deadline)
  }

  @Test func repeatingTimerRepeatsOnItsGridUntilCancelled() throws {
    let loop = try EventLoop()
    let interval = 0.001
    var deadlines: [Double] = []
    var timer: LoopTimer?
    timer = try LoopTimer(loop: loop) {
      // The deadline already points at the next firing when the callback runs.
      deadlines.append(timer?.deadline ?? -1)
      if deadlines.count == 5 { timer?.cancel() }
    }
    let first = loop.now + interval
    timer?.scheduleRepeating(every: interval, startingAt: first)
    try loop.pump(until: { deadlines.count == 5 })
    #expect(timer?.isScheduled == false)

    // Let more than a few intervals pass: a cancelled repeating timer stays silent.
    var sentinelFired = false
    let sentinel = try LoopTimer(loop: loop) { sentinelFired = true }
    sentinel.schedule(after: interval * 5)
    try loop.pump(until: { sentinelFired })
    #expect(deadlines.count == 5)
    for (index, deadline) in deadlines.enumerated() {
      let steps = (deadline - first) / interval
      #expect(abs(steps - steps.rounded()) < 1e-6, "deadline \(index) is off the grid")
      #expect(steps.rounded() >= Double(index + 1))
    }
    timer = nil
  }

  @Test func cancelledTimerDoesNotFire() throws {
    let loop = try EventLoop()
    var cancelledFired = false
    var laterFired = false
    let cancelled = try LoopTimer(loop: loop) { cancelledFired = true }
    let later = try LoopTimer(loop: loop) { laterFired = true }
    cancelled.schedule(after: 0.001)
    later.schedule(after: 0.004)
    cancelled.cancel()
    #expect(!cancelled.isScheduled)
    try loop.pump(until: { laterFired })
    #expect(!cancelledFired)
  }

  @Test func reschedulingReplacesTheEarlierSchedule() throws {
    let loop = try EventLoop()
    var count = 0
    let timer = try LoopTimer(loop: loop) { count += 1 }
    timer.schedule(after: 3600)
    timer.schedule(after: 0.001)
    try loop.pump(until: { count == 1 })
    #expect(!timer.isScheduled)
    var sentinelFired = false
    let sentinel = try LoopTimer(loop: loop) { sentinelFired = true }
    sentinel.schedule(after: 0.003)
    try loop.pump(until: { sentinelFired })
    #expect(count == 1)
  }

  @Test func deadlineInThePastFiresOnTheNextIteration() throws {
    let loop = try EventLoop()
    var fired = false
    let timer = try LoopTimer(loop: loop) { fired = true }
    timer.schedule(at: loop.now - 10)
    try loop.runOnce()
    #expect(fired)
  }

  @Test func scheduledTimerKeepsItselfAliveAndIsFreedAfterFiring() throws {
    let loop = try EventLoop()
    var fired = false
    weak var weakTimer: LoopTimer?
    do {
      let timer = try LoopTimer(loop: loop) { fired = true }
      timer.schedule(after: 0.001)
      weakTimer = timer
    }
    #expect(weakTimer != nil)
    try loop.pump(until: { fired })
    #expect(weakTimer == nil)
  }

  @Test func oneShotTimerCanRescheduleItselfFromItsCallback() throws {
    let loop = try EventLoop()
    var count = 0
    var timer: LoopTimer?
    timer = try LoopTimer(loop: loop) {
      count += 1
      if count < 3 { timer?.schedule(after: 0.001) }
    }
    timer?.schedule(after: 0.001)
    try loop.pump(until: { count == 3 })
    #expect(timer?.isScheduled == false)
    timer = nil
  }
}
