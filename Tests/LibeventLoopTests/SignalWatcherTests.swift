import Glibc
import LibeventLoop
import Testing

/// Serialized: libevent delivers signals to one event base per process at a time.
@Suite(.serialized) struct SignalWatcherTests {
  @Test func deliversRaisedSignalsOnTheLoop() throws {
    let loop = try EventLoop()
    var received: [Int32] = []
    let watcher = try SignalWatcher(loop: loop) { received.append($0) }
    defer { watcher.cancel() }
    #expect(watcher.signals == [SIGINT, SIGTERM, SIGHUP])
    for signalNumber in [SIGHUP, SIGTERM, SIGINT] {
      // Process-directed: the test's worker thread blocks signals, so raise() would leave the
      // signal pending on it; kill() lets any thread that does not block it take it.
      kill(getpid(), signalNumber)
      try loop.pump(until: { received.last == signalNumber })
    }
    #expect(received == [SIGHUP, SIGTERM, SIGINT])
  }

  @Test func cancelRestoresThePreviousHandler() throws {
    let loop = try EventLoop()
    var before = sigaction()
    sigaction(SIGUSR2, nil, &before)
    let watcher = try SignalWatcher(loop: loop, signals: [SIGUSR2]) { _ in }
    var during = sigaction()
    sigaction(SIGUSR2, nil, &during)
    watcher.cancel()
    var after = sigaction()
    sigaction(SIGUSR2, nil, &after)
    let handler = { (action: sigaction) in
      unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    }
    #expect(handler(during) != handler(before))
    #expect(handler(after) == handler(before))
    #expect(!watcher.isActive)
  }
}
