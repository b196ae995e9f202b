import Foundation

extension DaemonBenchmarks {
  /// `display`: each refresh scenario display-paced and on today's grid, one run each,
  /// interleaved (``DisplayBench``), and for each build the daemon's CPU a frame paced over
  /// that on the grid.
  func display() throws {
    let seconds = options.secondsGiven ? options.scaleSeconds : 30
    let sessions = options.scaleSessions ?? 1_000
    let connections = options.scaleConnections ?? 50
    let lead = 0.004
    let refreshes: [DisplayBench.Refresh] = [
      .fixed(hertz: 60), .fixed(hertz: 120), .fixed(hertz: 144), .variable(48...144),
    ]
    for refresh in refreshes {
      // Each build's CPU a frame, display-paced, for the ratio after its grid run.
      var pacedCPU: [String: Double] = [:]
      for paced in [true, false] {
        for build in options.daemonBuilds {
          let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
          defer { daemon.stop() }
          let result = try DisplayBench(daemon: daemon).run(
            refresh: refresh, paced: paced, sessions: sessions, connections: connections,
            seconds: seconds, lead: lead)
          let name = build.labelled(
            "\(refresh.name), \(paced ? "display-paced" : "grid \(refresh.gridFps) fps"), "
              + "\(sessions) / \(connections)")
          reportDisplay(result, name: name, lead: lead)
          let cpuAFrame = result.cpuPerFrame
          if paced {
            pacedCPU[build.label] = cpuAFrame
          } else if let pacedCPU = pacedCPU[build.label], cpuAFrame > 0 {
            report.add(
              "display", build.labelled("\(refresh.name): daemon CPU a frame, paced / grid"),
              pacedCPU / cpuAFrame, "", "at most 1.1 is the bound (docs/performance.md)")
          }
        }
      }
    }
  }

  private func reportDisplay(_ result: DisplayBench.Result, name: String, lead: Double) {
    report.add(
      "display", "\(name): |shown − vblank| p99", result.error.value(0.99) * 1e3, "ms",
      "max \(BenchReport.format(result.error.maximum * 1e3)) ms over \(result.vblanks) vblanks")
    report.add(
      "display", "\(name): |t − (vblank − start)| p99, first shown",
      result.firstShownError.value(0.99) * 1e3, "ms",
      "max \(BenchReport.format(result.firstShownError.maximum * 1e3)) ms, each frame at the first vblank showing it"
    )
    report.add(
      "display", "\(name): repeated at a vblank", Double(result.repeated), "",
      "skipped \(result.skipped), of \(result.vblanks) vblanks")
    report.add(
      "display", "\(name): arrival before its instant p1", result.earliness.value(0.01) * 1e3,
      "ms",
      "median \(BenchReport.format(result.earliness.median * 1e3)) ms, lead "
        + "\(BenchReport.format(lead * 1e3)) ms, \(result.framesRead) frames")
    report.add(
      "display", "\(name): daemon CPU", result.cpuFraction, "cores",
      "\(BenchReport.format(result.framesPerSecond)) frames/s read")
    report.add(
      "display", "\(name): daemon CPU a frame", result.cpuPerFrame * 1e6,
      "µs", "the daemon's CPU over the frames read")
  }
}
