import Foundation

/// Frames while the plugin host restarts: one zoom-present session at 60 fps on the wall
/// clock, read as it comes, while the benchmark kills the daemon's plugin host (SIGKILL) once
/// a second, `busy` processes spinning at nice 10 beside it (a loaded machine). Each frame's
/// lateness is its arrival minus the instant it shows (`start + t`); those arriving within
/// 0.5 s after a kill are the restart's, those more than 0.1 s before and 0.6 s after any
/// kill the rest.
struct RestartBench {
  struct Result {
    var nearRestart = Percentiles([])
    var elsewhere = Percentiles([])
    var restarts = 0
  }

  let daemon: DaemonProcess

  func run(restarts: Int, busy: Int) throws -> Result {
    let spinners = try (0..<busy).map { _ in
      let spinner = Process()
      spinner.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
      spinner.arguments = ["-n", "10", "/bin/sh", "-c", "while :; do :; done"]
      try spinner.run()
      return spinner
    }
    defer {
      for spinner in spinners {
        spinner.terminate()
        spinner.waitUntilExit()
      }
    }
    let control = try LineSocket(path: daemon.socketPath)
    let reply = try control.request(
      #"{"op":"begin","session":"r0","duration":3600,"context":\#(BenchContexts.zoomPresent)}"#)
    guard reply.contains(#""ok":true"#) else { throw BenchError("begin failed: \(reply)") }
    let start = reply.value(of: "start").flatMap(Double.init) ?? Monotonic.now
    let reader = try LineSocket(path: daemon.socketPath)
    try reader.send(#"{"op":"subscribe","session":"r0","fps":60,"clock":"wall"}"#)
    let arrivals = Collector()
    let readerThread = Thread {
      var parser = FrameLineParser()
      var lateness: [Double] = []
      var arrived: [Double] = []
      var complete = false
      while !complete,
        reader.readChunk({ chunk, arrival in
          parser.feed(chunk) { line in
            switch line {
            case .frame(_, _, let t, _):
              arrived.append(arrival)
              lateness.append(arrival - (start + t))
            case .complete: complete = true
            default: break
            }
          }
        })
      {}
      // Arrival instants and lateness, side by side.
      arrivals.add(frames: 0, gaps: 0, lateness: arrived + lateness, failure: nil)
    }
    readerThread.start()
    Thread.sleep(forTimeInterval: 1)
    var kills: [Double] = []
    for _ in 0..<restarts {
      guard let host = daemon.hostPID else { throw BenchError("the daemon has no plugin host") }
      kills.append(Monotonic.now)
      kill(host, SIGKILL)
      Thread.sleep(forTimeInterval: 1)
    }
    _ = try control.request(#"{"op":"end","session":"r0"}"#)
    while !readerThread.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    let both = arrivals.lateness
    let count = both.count / 2
    var near: [Double] = []
    var elsewhere: [Double] = []
    for index in 0..<count {
      let arrival = both[index]
      let late = both[count + index]
      if kills.contains(where: { arrival >= $0 && arrival < $0 + 0.5 }) {
        near.append(late)
      } else if !kills.contains(where: { arrival >= $0 - 0.1 && arrival < $0 + 0.6 }) {
        elsewhere.append(late)
      }
    }
    return Result(
      nearRestart: Percentiles(near), elsewhere: Percentiles(elsewhere), restarts: kills.count)
  }
}
