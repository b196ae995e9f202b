import Foundation

extension DaemonBenchmarks {
  /// `display`: each refresh scenario display-paced and on today's grid, interleaved run by
  /// run (``DisplayBench``; one run each unless `--runs` is given), and for each build the
  /// median over the runs of the daemon's CPU a frame paced over that on the grid, at the same
  /// frame count: a variable-refresh display's grid subscribers ask for its highest rate (so no
  /// vblank lacks a frame), and one more grid run at the paced run's mean rate gives its ratio.
  func display() throws {
    let seconds = options.secondsGiven ? options.scaleSeconds : 30
    let sessions = options.scaleSessions ?? 1_000
    let connections = options.scaleConnections ?? 50
    let runs = options.runsGiven ? options.runs : 1
    let lead = 0.004
    for refresh in options.refreshes {
      // Each build's CPU a frame, display-paced and on the grid at the same frame count.
      var pacedCPU: [String: [Double]] = [:]
      var gridCPU: [String: [Double]] = [:]
      // The paced run's mean rate a session, for the grid run at the same frame count.
      var pacedFps: [String: Int] = [:]
      for run in 0..<runs {
        for pass in DisplayPass.passes(for: refresh) {
          for build in options.daemonBuilds {
            let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
            defer { daemon.stop() }
            let gridFps = pass == .gridAtPacedRate ? pacedFps[build.label] : nil
            let result = try DisplayBench(daemon: daemon).run(
              refresh: refresh, paced: pass == .paced, sessions: sessions,
              connections: connections, seconds: seconds, lead: lead, gridFps: gridFps)
            let mode =
              pass == .paced ? "display-paced" : "grid \(gridFps ?? refresh.gridFps) fps"
            let name = build.labelled(
              "\(refresh.name), \(mode), \(sessions) / \(connections)"
                + (runs > 1 ? ", run \(run + 1)" : ""))
            reportDisplay(result, name: name, lead: lead)
            switch pass {
            case .paced:
              pacedCPU[build.label, default: []].append(result.cpuPerFrame)
              pacedFps[build.label] = max(
                Int((result.framesPerSecond / Double(sessions)).rounded()), 1)
            case .grid where refresh.isFixed, .gridAtPacedRate:
              gridCPU[build.label, default: []].append(result.cpuPerFrame)
            case .grid:
              break
            }
          }
        }
      }
      for build in options.daemonBuilds {
        let paced = Percentiles(pacedCPU[build.label] ?? []).median
        let grid = Percentiles(gridCPU[build.label] ?? []).median
        guard grid > 0 else { continue }
        report.add(
          "display",
          build.labelled("\(refresh.name): daemon CPU a frame, paced / grid at the same frames"),
          paced / grid, "",
          "medians of \(runs) run\(runs == 1 ? "" : "s"): \(BenchReport.format(paced * 1e6)) / "
            + "\(BenchReport.format(grid * 1e6)) µs; at most 1.1 is the bound")
      }
    }
  }

  /// One run of a refresh scenario.
  private enum DisplayPass: Equatable {
    /// Display-paced.
    case paced
    /// On the grid at the display's highest rate.
    case grid
    /// On the grid at the paced run's mean rate (variable refresh only).
    case gridAtPacedRate

    static func passes(for refresh: DisplayBench.Refresh) -> [DisplayPass] {
      refresh.isFixed ? [.paced, .grid] : [.paced, .grid, .gridAtPacedRate]
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
      "display", "\(name): daemon ticks late", Double(result.ticksLate), "",
      "of \(result.ticksRendered) over the run: frames the daemon had ready only after their "
        + "deadline")
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
