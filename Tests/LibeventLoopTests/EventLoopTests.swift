import Glibc
import LibeventLoop
import Testing
import UnixIO

@Suite struct EventLoopTests {
  @Test func runReturnsAfterStopFromCallback() throws {
    let loop = try EventLoop()
    var fired = false
    let timer = try LoopTimer(loop: loop) {
      fired = true
      loop.stop()
    }
    timer.schedule(after: 0)
    try loop.run()
    #expect(fired)
  }

  @Test func runReturnsAtTheDeadlineOfStopAfter() throws {
    let loop = try EventLoop()
    // A timer far in the future keeps the loop busy; only the deadline ends it.
    let idle = try LoopTimer(loop: loop) {}
    idle.schedule(after: 3_600)
    defer { idle.cancel() }
    var ticks = 0
    let ticker = try LoopTimer(loop: loop) {
      ticks += 1
      if ticks == 1 { loop.stop(after: 0) }
    }
    ticker.schedule(after: 0)
    try loop.run()
    #expect(ticks == 1)
  }

  @Test func nowReadsTheMonotonicClock() throws {
    let loop = try EventLoop()
    func monotonic() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let before = monotonic()
    let now = loop.now
    let after = monotonic()
    #expect(before <= now && now <= after)
  }

  @Test func usesEpoll() throws {
    #expect(try EventLoop().backendName == "epoll")
  }

  @Test func runOnceReportsAnEmptyLoop() throws {
    let loop = try EventLoop()
    #expect(try loop.runOnce() == false)
  }

  @Test func creatingALoopIgnoresSIGPIPE() throws {
    _ = try EventLoop()
    var action = sigaction()
    sigaction(SIGPIPE, nil, &action)
    let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    #expect(handler == 1)  // SIG_IGN
  }

  @Test func systemErrorDescribesTheCall() {
    let error = SystemError(errno: ENOENT, function: "open", path: "/nowhere")
    #expect(error.description == "open /nowhere: No such file or directory (errno 2)")
  }
}
