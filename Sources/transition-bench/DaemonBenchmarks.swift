import Foundation
import TransitionWire
import UnixIO

/// The benchmarks of a real transitiond: each starts the daemons of every build measured
/// (`--baseline` adds one), interleaved run by run where a mode compares them.
struct DaemonBenchmarks {
  let options: BenchOptions
  let report: BenchReport

  /// Limits high enough for the scale scenarios (the defaults allow 64 sessions a client).
  static let config =
    #""limits":{"maxSessions":2048,"maxSessionsPerClient":2048,"maxSessionsPerUser":2048,"maxClientsPerUser":512,"maxClients":1024,"maxSubscriptionsPerClient":256}"#

  func stream() throws {
    let daemons = try options.daemonBuilds.map { try DaemonProcess(binDirectory: $0.directory) }
    defer { for daemon in daemons { daemon.stop() } }
    let benches = daemons.map { StreamBench(daemon: $0) }
    let limit = try SocketLimit(lines: try benches[benches.count - 1].sampleFrames(count: 64))
    let node = try options.nodeScript.flatMap { try NodePeer(script: $0) }
    defer { node?.stop() }
    let fps = 240
    var daemonRates = [[Double]](repeating: [], count: daemons.count)
    var daemonCPU = [[Double]](repeating: [], count: daemons.count)
    var limitRates: [Double] = []
    var nodeRates: [Double] = []
    var layers = 0
    var daemonBytes = [Int](repeating: 0, count: daemons.count)
    var nodeBytes = 0
    for _ in 0..<options.runs {
      for (index, bench) in benches.enumerated() {
        let daemonRun = try bench.run(frames: options.frames, fps: fps, readers: 1)
        daemonRates[index].append(Double(daemonRun.frames) / daemonRun.seconds)
        daemonCPU[index].append(daemonRun.cpuSeconds / Double(max(daemonRun.frames, 1)))
        layers = daemonRun.layers
        daemonBytes[index] = daemonRun.bytes / max(daemonRun.frames, 1)
      }
      let limitRun = try limit.run(frames: options.frames)
      limitRates.append(Double(limitRun.frames) / limitRun.seconds)
      if let node {
        let nodeRun = try node.run(frames: options.frames, cells: 24)
        nodeRates.append(Double(nodeRun.frames) / nodeRun.seconds)
        nodeBytes = nodeRun.bytes / max(nodeRun.frames, 1)
      }
    }
    let limitRate = Percentiles(limitRates).median
    let nodeRate = Percentiles(nodeRates).median
    for (index, build) in options.daemonBuilds.enumerated() {
      let daemonRate = Percentiles(daemonRates[index]).median
      report.add(
        "stream", build.labelled("transitiond, 1 reader"), daemonRate, "frames/s",
        "\(layers) layers, \(daemonBytes[index]) bytes a frame, \(Int(daemonRate * Double(daemonBytes[index]) / 1e6)) MB/s"
      )
      report.add(
        "stream", build.labelled("daemon CPU a frame"),
        Percentiles(daemonCPU[index]).median * 1e6,
        "µs",
        "/proc/<pid>/stat; what a free core would allow: \(Int(1 / max(Percentiles(daemonCPU[index]).median, 1e-9))) frames/s"
      )
      report.add(
        "stream", build.labelled("transitiond / socket limit"), daemonRate / limitRate, "x")
      if node != nil {
        report.add(
          "stream", build.labelled("transitiond / Node.js"), daemonRate / nodeRate, "x")
      }
    }
    report.add(
      "stream", "socket limit, same bytes", limitRate, "frames/s", "a sender of pre-encoded lines")
    if node != nil {
      report.add(
        "stream", "Node.js peer_node.js", nodeRate, "frames/s",
        "25 layers, \(nodeBytes) bytes a frame")
    } else {
      print("stream    (node not found or no peer_node.js: the Node.js comparison is skipped)")
    }
    var four = [[Double]](repeating: [], count: daemons.count)
    for _ in 0..<options.runs {
      for (index, bench) in benches.enumerated() {
        let run = try bench.run(frames: options.frames, fps: fps, readers: 4)
        four[index].append(Double(run.frames) / run.seconds)
      }
    }
    for (index, build) in options.daemonBuilds.enumerated() {
      report.add(
        "stream", build.labelled("transitiond, 4 readers"), Percentiles(four[index]).median,
        "frames/s", "in all")
    }
  }

  func scale() throws {
    var scenarios: [(Int, Int, Int, FrameEncoding)] = [
      (1_000, 60, 50, .full), (1_000, 60, 50, .delta), (500, 120, 50, .full),
    ]
    if options.scaleSessions != nil || options.scaleFps != nil || options.scaleConnections != nil
      || options.scaleEncoding != nil
    {
      scenarios = [
        (
          options.scaleSessions ?? 1_000, options.scaleFps ?? 60, options.scaleConnections ?? 50,
          options.scaleEncoding ?? .full
        )
      ]
    }
    if let cpu = options.daemonCPU {
      let allowed = try CPUAffinity.allowed()
      let others = allowed.filter { $0 != cpu }
      guard allowed.contains(cpu), !others.isEmpty else {
        throw BenchError(
          "--daemon-cpu \(cpu): not a CPU this process may use (\(allowed)), or none is left for the readers"
        )
      }
      // The readers, and every thread this process starts from now on, stay off the daemon's CPU.
      try CPUAffinity.restrict(process: getpid(), to: others)
    }
    for (sessions, fps, connections, encoding) in scenarios {
      var results = [[ScaleBench.Result]](repeating: [], count: options.daemonBuilds.count)
      for _ in 0..<min(options.runs, 3) {
        for (index, build) in options.daemonBuilds.enumerated() {
          let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
          defer { daemon.stop() }
          if let cpu = options.daemonCPU {
            try CPUAffinity.restrict(process: daemon.pid, to: [cpu])
          }
          results[index].append(
            try ScaleBench(daemon: daemon).run(
              sessions: sessions, fps: fps, connections: connections, encoding: encoding,
              seconds: options.scaleSeconds)
          )
        }
      }
      for (index, build) in options.daemonBuilds.enumerated() {
        reportScale(
          results[index], build: build,
          scenario:
            "\(sessions) × \(fps) fps / \(connections)\(encoding == .delta ? ", delta" : "")"
            + (options.daemonCPU.map { ", daemon on CPU \($0)" } ?? ""))
      }
    }
  }

  private func reportScale(
    _ results: [ScaleBench.Result], build: DaemonBuild, scenario: String
  ) {
    let name = build.labelled(scenario)
    let layers = results.first?.layers ?? 0
    report.add(
      "scale", "\(name): lateness p50",
      Percentiles(results.map { $0.lateness.median }).median * 1e3, "ms",
      "\(layers) layers, median of \(results.count) runs")
    report.add(
      "scale", "\(name): lateness p99",
      Percentiles(results.map { $0.lateness.value(0.99) }).median * 1e3, "ms",
      "worst run \(BenchReport.format((results.map { $0.lateness.value(0.99) }.max() ?? 0) * 1e3)) ms"
    )
    report.add(
      "scale", "\(name): seq gaps", Double(results.map(\.gaps).max() ?? 0), "", "worst run")
    let read = results.map { Double($0.framesRead) / Double(max($0.framesDue, 1)) }
    report.add(
      "scale", "\(name): frames read / due", Percentiles(read).median, "",
      "\(results.last?.framesRead ?? 0) of \(results.last?.framesDue ?? 0)")
    report.add(
      "scale", "\(name): bytes a frame",
      Percentiles(results.map { Double($0.bytesRead) / Double(max($0.framesRead, 1)) }).median,
      "B", "everything read over the frames read")
    report.add(
      "scale", "\(name): daemon CPU", Percentiles(results.map(\.cpuFraction)).median, "cores",
      "the readers: \(BenchReport.format(Percentiles(results.map(\.readerCPUFraction)).median)) cores"
    )
    report.add(
      "scale", "\(name): peak RSS",
      Double(results.map(\.peakResidentBytes).max() ?? 0) / 1_048_576, "MiB", "VmHWM")
  }

  func update() throws {
    let fps = options.scaleFps ?? 60
    let background = options.scaleSessions ?? 100
    for build in options.daemonBuilds {
      let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
      defer { daemon.stop() }
      let latency = try UpdateBench(daemon: daemon).run(
        updates: options.updates, background: background, fps: fps)
      report.add(
        "update", build.labelled("update → frame p50"), latency.daemon.median * 1e3, "ms",
        "\(background) sessions at \(fps) fps")
      report.add(
        "update", build.labelled("update → frame p99"), latency.daemon.value(0.99) * 1e3, "ms")
      report.add(
        "update", build.labelled("floor: echo peer p50"), latency.floor.median * 1e3, "ms",
        "the same client and pacing, a peer that only echoes (UpdateEchoPeer)")
      report.add(
        "update", build.labelled("floor: echo peer p99"), latency.floor.value(0.99) * 1e3, "ms")
      report.add(
        "update", build.labelled("floor: echo process p50"), latency.processFloor.median * 1e3,
        "ms", "the same from a process of its own, as the daemon is (EchoProcess)")
      report.add(
        "update", build.labelled("floor: echo process p99"),
        latency.processFloor.value(0.99) * 1e3, "ms")
      let window = "\(Int(UpdateBench.tickWindow * 1e3)) ms before a tick"
      for (name, split) in [
        ("update → frame", latency.daemonByTick), ("echo process", latency.processFloorByTick),
      ] {
        for (when, part) in [(window, split.before), ("between ticks", split.between)] {
          report.add(
            "update", build.labelled("\(name), \(when): p50 / p99"), part.median * 1e3, "ms",
            "p99 \(BenchReport.format(part.value(0.99) * 1e3)) ms; \(part.count) round trips")
        }
      }
    }
  }

  func restart() throws {
    for build in options.daemonBuilds {
      let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
      defer { daemon.stop() }
      let result = try RestartBench(daemon: daemon).run(restarts: 20, busy: 3)
      let note = "\(result.restarts) restarts, 3 processes spinning at nice 10"
      report.add(
        "restart", build.labelled("after a restart: p99"),
        result.nearRestart.value(0.99) * 1e3, "ms", note)
      report.add(
        "restart", build.labelled("after a restart: worst"), result.nearRestart.maximum * 1e3,
        "ms", "\(result.nearRestart.count) frames")
      report.add(
        "restart", build.labelled("elsewhere: p99"), result.elsewhere.value(0.99) * 1e3, "ms")
      report.add(
        "restart", build.labelled("elsewhere: worst"), result.elsewhere.maximum * 1e3, "ms",
        "\(result.elsewhere.count) frames")
    }
  }

  func render() throws {
    let daemon = try DaemonProcess(binDirectory: options.binDirectory, config: Self.config)
    defer { daemon.stop() }
    let result = try RenderBench(daemon: daemon, binDirectory: options.binDirectory)
      .run(runs: options.runs)
    let note = "album flip at 33.3 fps, GIF, scale 1"
    report.add("render", "native renderer", result.native.median, "s", note)
    report.add("render", "chromium", result.chromium.median, "s", note)
    report.add(
      "render", "chromium / native", result.chromium.median / result.native.median, "×")
  }

  func begin() throws {
    for build in options.daemonBuilds {
      let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
      defer { daemon.stop() }
      let latency = try BeginBench(daemon: daemon).run(count: options.beginCount)
      report.add(
        "begin", build.labelled("begin → reply p50"), latency.median * 1e3, "ms",
        "album-flip, 32 layers, \(options.beginCount) begins")
      report.add("begin", build.labelled("begin → reply p99"), latency.value(0.99) * 1e3, "ms")
    }
  }

  /// Taps of each scene made before the timed ones, on every build.
  static let warmUpTaps = 50

  func tap() throws {
    let scenes = [
      ("album-flip push", BenchContexts.albumPush),
      ("zoom-present present", BenchContexts.zoomPresent),
    ]
    let count = max(options.beginCount / 4, 50)
    // Interleaved: each build measures a slice of the taps in turn, so that the machine's load
    // weighs on both alike.
    let daemons = try options.daemonBuilds.map {
      try DaemonProcess(binDirectory: $0.directory, config: Self.config)
    }
    defer { for daemon in daemons { daemon.stop() } }
    for (name, context) in scenes {
      var samples = [[Double]](repeating: [], count: daemons.count)
      // CPU seconds of the daemon and of its plugin host over the taps: what a tap costs
      // whatever the machine's load.
      var daemonCPU = [Double](repeating: 0, count: daemons.count)
      var hostCPU = [Double](repeating: 0, count: daemons.count)
      // Untimed first: a daemon's first taps of a scene run cold (the plugin host's first
      // read of the animator's paths, first allocations), once in its life.
      for daemon in daemons {
        _ = try TapBench(daemon: daemon).run(count: Self.warmUpTaps, context: context)
      }
      for _ in 0..<options.runs {
        for (index, daemon) in daemons.enumerated() {
          let (daemonBefore, hostBefore) = (daemon.cpuSeconds, daemon.hostCPUSeconds)
          samples[index] += try TapBench(daemon: daemon).run(
            count: count / options.runs + 1, context: context
          )
          .samples
          daemonCPU[index] += daemon.cpuSeconds - daemonBefore
          hostCPU[index] += daemon.hostCPUSeconds - hostBefore
        }
      }
      for (index, build) in options.daemonBuilds.enumerated() {
        let latency = Percentiles(samples[index])
        report.add(
          "tap", build.labelled("\(name): begin+subscribe → first frame p50"),
          latency.median * 1e3, "ms", "\(samples[index].count) taps")
        report.add(
          "tap", build.labelled("\(name): begin+subscribe → first frame p99"),
          latency.value(0.99) * 1e3, "ms")
        let taps = Double(max(samples[index].count, 1))
        report.add(
          "tap", build.labelled("\(name): CPU a tap, daemon + plugin host"),
          (daemonCPU[index] + hostCPU[index]) / taps * 1e3, "ms",
          "daemon \(BenchReport.format(daemonCPU[index] / taps * 1e3)) ms, plugin host \(BenchReport.format(hostCPU[index] / taps * 1e3)) ms; /proc/<pid>/stat"
        )
      }
    }
  }

  func idle() throws {
    for build in options.daemonBuilds {
      var startups: [Double] = []
      for _ in 0..<options.runs {
        let daemon = try DaemonProcess(binDirectory: build.directory)
        startups.append(daemon.startupSeconds)
        daemon.stop()
      }
      report.add(
        "idle", build.labelled("start-up to first reply"), Percentiles(startups).median * 1e3,
        "ms")
      let daemon = try DaemonProcess(binDirectory: build.directory)
      defer { daemon.stop() }
      let client = try LineSocket(path: daemon.socketPath)
      _ = try client.request(#"{"op":"hello"}"#)
      let before = daemon.cpuSeconds
      sleep(2)
      report.add(
        "idle", build.labelled("CPU while idle (2 s, one client)"),
        (daemon.cpuSeconds - before) * 1e3, "ms", "RSS \(daemon.residentBytes / 1_048_576) MiB")
    }
  }

  func delta() throws {
    let scenes = [
      ("album-flip push, 24 cells", BenchContexts.albumPush, "album-flip"),
      ("zoom-present present", BenchContexts.zoomPresent, "zoom-present"),
    ]
    for build in options.daemonBuilds {
      let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.config)
      defer { daemon.stop() }
      let bench = DeltaBench(daemon: daemon)
      for (name, context, animator) in scenes {
        // The bytes are deterministic (the virtual clock): one run says it.
        guard let result = try? bench.run(context: context, animator: animator, fps: 60) else {
          print("delta     \(build.labelled(name)): this daemon has no delta frames")
          continue
        }
        report.add(
          "delta", build.labelled("\(name): full / delta bytes"), result.ratio, "x",
          "\(result.frames) frames: \(result.fullBytes / max(result.frames, 1)) bytes a full frame, "
            + "\(result.deltaBytes / max(result.frames, 1)) a delta (key frame included)")
      }
    }
  }

  /// The fairness scenario's limits: the default quotas per user (256 sessions, 64 a
  /// connection), a socket any user may connect to, and readers that never read kept for the
  /// whole run (coalesced, not dropped after 5 s).
  static let fairnessConfig =
    #""socketMode":"0666","limits":{"subscriberSoftLimitSeconds":600}"#

  /// Two users: the second user's lateness alone, then while the first streams its whole
  /// quota at 240 fps to readers that never read.
  func fairness() throws {
    let light = (sessions: 20, fps: 60, connections: 2)
    let heavy = (clients: 4, sessions: 256, fps: 240)
    let seconds = options.scaleSeconds
    var alone = [[ScaleBench.Result]](repeating: [], count: options.daemonBuilds.count)
    var loaded = [[ScaleBench.Result]](repeating: [], count: options.daemonBuilds.count)
    var heavyCPU = [[Double]](repeating: [], count: options.daemonBuilds.count)
    for _ in 0..<min(options.runs, 3) {
      for (index, build) in options.daemonBuilds.enumerated() {
        let daemon = try DaemonProcess(binDirectory: build.directory, config: Self.fairnessConfig)
        defer { daemon.stop() }
        let bench = ScaleBench(daemon: daemon)
        alone[index].append(
          try bench.run(
            sessions: light.sessions, fps: light.fps, connections: light.connections,
            seconds: seconds))
        let child = try FairnessLoad.Child(
          socketPath: daemon.socketPath, clients: heavy.clients, sessions: heavy.sessions,
          fps: heavy.fps)
        defer { child.stop() }
        // The heavy user's readers fill up and start coalescing within a few ticks.
        usleep(300_000)
        let before = daemon.cpuSeconds
        let start = Monotonic.now
        loaded[index].append(
          try bench.run(
            sessions: light.sessions, fps: light.fps, connections: light.connections,
            seconds: seconds))
        heavyCPU[index].append((daemon.cpuSeconds - before) / (Monotonic.now - start))
      }
    }
    for (index, build) in options.daemonBuilds.enumerated() {
      let name = "\(light.sessions) × \(light.fps) fps"
      for (label, results) in [
        ("alone", alone[index]), ("beside 256 × 240 fps unread", loaded[index]),
      ] {
        report.add(
          "fairness", build.labelled("\(name) \(label): lateness p50"),
          Percentiles(results.map { $0.lateness.median }).median * 1e3, "ms",
          "median of \(results.count) runs")
        report.add(
          "fairness", build.labelled("\(name) \(label): lateness p99"),
          Percentiles(results.map { $0.lateness.value(0.99) }).median * 1e3, "ms",
          "worst run \(BenchReport.format((results.map { $0.lateness.value(0.99) }.max() ?? 0) * 1e3)) ms, "
            + "seq gaps \(results.map(\.gaps).max() ?? 0)")
      }
      report.add(
        "fairness", build.labelled("daemon CPU, both users"), Percentiles(heavyCPU[index]).median,
        "cores")
    }
  }
}
