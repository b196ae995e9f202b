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
    // Thread 0 reads the frames until the session completes; thread 1 kills the host and then
    // ends the session. Each writes its own part, read once both have returned.
    let run = Run(daemon: daemon, control: control)
    runOnThreads(2) { role in
      if role == 0 { run.read(reader, start: start) } else { run.kill(times: restarts) }
    }
    if let failure = run.failure { throw failure }
    var near: [Double] = []
    var elsewhere: [Double] = []
    for (arrival, late) in run.frames {
      if run.kills.contains(where: { arrival >= $0 && arrival < $0 + 0.5 }) {
        near.append(late)
      } else if !run.kills.contains(where: { arrival >= $0 - 0.1 && arrival < $0 + 0.6 }) {
        elsewhere.append(late)
      }
    }
    return Result(
      nearRestart: Percentiles(near), elsewhere: Percentiles(elsewhere),
      restarts: run.kills.count)
  }

  /// The two threads' work and findings.
  private final class Run: @unchecked Sendable {
    let daemon: DaemonProcess
    let control: LineSocket
    /// Each frame's arrival and lateness (the reader's).
    var frames: [(arrival: Double, lateness: Double)] = []
    /// When each kill was sent (the killer's).
    var kills: [Double] = []
    var failure: Error?

    init(daemon: DaemonProcess, control: LineSocket) {
      self.daemon = daemon
      self.control = control
    }

    func read(_ socket: LineSocket, start: Double) {
      var parser = FrameLineParser()
      var complete = false
      while !complete,
        socket.readChunk({ chunk, arrival in
          parser.feed(chunk) { line in
            switch line {
            case .frame(_, _, let t, _): self.frames.append((arrival, arrival - (start + t)))
            case .complete: complete = true
            default: break
            }
          }
        })
      {}
    }

    func kill(times: Int) {
      Thread.sleep(forTimeInterval: 1)
      for _ in 0..<times {
        guard let host = daemon.hostPID else {
          failure = BenchError("the daemon has no plugin host")
          break
        }
        kills.append(Monotonic.now)
        Glibc.kill(host, SIGKILL)
        Thread.sleep(forTimeInterval: 1)
      }
      do {
        _ = try control.request(#"{"op":"end","session":"r0"}"#)
      } catch {
        failure = failure ?? error
      }
    }
  }
}
