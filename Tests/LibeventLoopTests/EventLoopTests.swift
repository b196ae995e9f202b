import Glibc
import LibeventLoop
import Testing

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
