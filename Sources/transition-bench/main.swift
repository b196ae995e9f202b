import Foundation
import TransitionJSON
import TransitionKit
import TransitionWire

/// transition-bench: measures the engine, the wire encoder and a real transitiond.
///
/// Each measurement runs several times and reports the median, so that a noisy machine does
/// not decide the figure; compared measurements run side by side in the same process,
/// interleaved run by run. No test asserts a time: this tool is where speed is measured.

let usage = """
  usage: transition-bench [MODE…] [options]

  modes (default: all of them, in this order):
    evaluate  layer states per second evaluating an album-flip-like timeline (one core)
    encode    frame events per second: FrameEncoder vs Foundation's JSONEncoder, same frames;
              and FrameRenderer: evaluate + encode together (the engine's frame rate, one
              stream tick's work)
    decode    frame events per second parsed as a client parses them: JSONValue
              (TransitionClient) vs Foundation's JSONSerialization
    stream    frames per second to one reader of a real transitiond (virtual clock, album-flip
              push), beside the socket's own limit for lines of the same bytes and the Node.js
              script (when node is on the PATH), interleaved; then four readers at once
    scale     wall-clock sessions × fps × connections: p50/p99 lateness against each
              session's frame grid, seq gaps, the daemon's CPU and peak RSS (1000 × 60 fps
              and 500 × 120 fps over 50 connections, or --sessions/--fps/--connections)
    update    update → the frame showing it, with 100 other sessions streaming
    begin     begin → its reply: album-flip begins one after another over one connection
              (the animator plugin answering), median and p99
    tap       begin + subscribe written together → the first frame (a tap's first frame):
              album-flip push of 24 cells and zoom-present present, median and p99
    idle      start-up time (to the first reply) and CPU used while idle
    delta     bytes of delta frames against full frames of the same session (album-flip
              push of 24 cells, zoom-present present; virtual clock at 60 fps), and
              FrameDeltaEncoder's frames per second against FrameEncoder's, same frames
    all       every mode above

  options:
    --runs N          repetitions; medians are reported (default 5)
    --frames N        frames per throughput run (default 20000)
    --layers N        layers of the engine's timeline (default 36, as the album-flip push)
    --sessions N      scale: sessions (with --fps and --connections: one scenario)
    --fps N           scale: frame rate; update: the frame rate of every stream (default 60)
    --connections N   scale: connections the sessions are spread over (default 50)
    --seconds S       scale: seconds each scenario streams (default 6)
    --updates N       update: samples (default 200)
    --begins N        begin: begins timed (default 2000)
    --daemon DIR      the directory holding transitiond and the plugins (default: this
                      tool's own directory)
    --baseline DIR    another build's directory: every daemon measurement runs for it too,
                      interleaved run by run, its rows marked "before"
    --node-script F   the Node.js peer (default: bench/peer_node.js under ../shared or
                      ../../shared)
    --json FILE       also write the results as JSON to FILE
  """

/// Every mode, in the order `all` runs them.
let allModes = [
  "evaluate", "encode", "decode", "stream", "scale", "update", "begin", "tap", "idle", "delta",
]
var modes: [String] = []
var runs = 5
var frames = 20_000
var layerCount = 36
var scaleSessions: Int?
var scaleFps: Int?
var scaleConnections: Int?
var scaleSeconds = 6.0
var samples = 200
var beginCount = 2_000
var jsonPath: String?
var binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  .deletingLastPathComponent()
var baselineDirectory: URL?
var nodeScript = ["../shared/bench/peer_node.js", "../../shared/bench/peer_node.js"].first {
  FileManager.default.fileExists(atPath: $0)
}

func fail(_ message: String, status: Int32 = 64) -> Never {
  DaemonProcess.running.terminateAll()
  FileHandle.standardError.write(Data("transition-bench: \(message)\n".utf8))
  exit(status)
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func text() -> String {
    guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
    return value
  }
  func number() -> Int {
    guard let value = Int(text()), value > 0 else { fail("\(argument) needs a positive number") }
    return value
  }
  switch argument {
  case "evaluate", "encode", "decode", "stream", "scale", "update", "begin", "tap", "idle",
    "delta":
    modes.append(argument)
  case "all": modes += allModes
  case "--runs": runs = number()
  case "--frames": frames = number()
  case "--layers": layerCount = max(number(), 3)
  case "--sessions": scaleSessions = number()
  case "--fps": scaleFps = number()
  case "--connections": scaleConnections = number()
  case "--seconds":
    guard let value = Double(text()), value > 0 else { fail("--seconds needs a positive number") }
    scaleSeconds = value
  case "--updates": samples = number()
  case "--begins": beginCount = number()
  case "--json": jsonPath = text()
  case "--daemon": binDirectory = URL(fileURLWithPath: text())
  case "--baseline": baselineDirectory = URL(fileURLWithPath: text())
  case "--node-script": nodeScript = text()
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    fail("unknown argument \(argument)\n\(usage)")
  }
}
if modes.isEmpty { modes = allModes }

let report = BenchReport()
report.machine = BenchReport.describeMachine()
report.machine["daemon"] = binDirectory.path
if let baselineDirectory { report.machine["baseline"] = baselineDirectory.path }

/// The daemons measured: the baseline ("before") first when there is one, then this build.
let daemonBuilds: [(label: String, directory: URL)] =
  (baselineDirectory.map { [("before", $0)] } ?? []) + [
    (baselineDirectory == nil ? "" : "after", binDirectory)
  ]

/// `name` marked with the build it measures when a baseline is compared.
func labelled(_ label: String, _ name: String) -> String {
  label.isEmpty ? name : "\(label): \(name)"
}

/// Limits high enough for the scale scenarios (the defaults allow 64 sessions a client).
let benchConfig =
  #""limits":{"maxSessions":2048,"maxSessionsPerClient":2048,"maxSessionsPerUser":2048,"maxClientsPerUser":512,"maxClients":1024,"maxSubscriptionsPerClient":256}"#
print(
  "transition-bench: median of \(runs) runs; \(report.machine["nproc"] ?? "?") cores, \(report.machine["cpu"] ?? "unknown CPU")"
)

/// Runs `body` `runs` times; returns the median seconds.
@MainActor func median(_ body: () -> Void) -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = Monotonic.now
    body()
    samples.append(Monotonic.now - start)
  }
  return Percentiles(samples).median
}

let timeline = BenchTimeline.albumFlipLike(layers: layerCount)
let evaluator = TimelineEvaluator(timeline)

do {
  for mode in modes {
    switch mode {
    case "evaluate": runEvaluate()
    case "encode": runEncode()
    case "decode": runDecode()
    case "stream": try runStream()
    case "scale": try runScale()
    case "update": try runUpdate()
    case "begin": try runBegin()
    case "idle": try runIdle()
    case "delta": try runDelta()
    case "tap": try runTap()
    default: break
    }
  }
} catch {
  fail("\(error)", status: 69)
}

if let jsonPath {
  do {
    try Data(report.json().utf8).write(to: URL(fileURLWithPath: jsonPath))
    print("wrote \(jsonPath)")
  } catch {
    fail("cannot write \(jsonPath): \(error)", status: 73)
  }
}

@MainActor func runEvaluate() {
  var frame = Frame()
  var checksum = 0.0
  let seconds = median {
    for index in 0..<frames {
      evaluator.evaluate(progress: Double(index) / Double(frames - 1), into: &frame)
      checksum += frame.layers[index % layerCount].frame.x
    }
  }
  report.add(
    "evaluate", "layer states", Double(frames * layerCount) / seconds / 1e6, "M/s",
    "\(layerCount) layers, \(Int(Double(frames) / seconds)) frames/s, checksum \(Int(checksum))")
}

@MainActor func runEncode() {
  let sampleFrames = (0..<64).map { evaluator.frame(progress: Double($0) / 63) }
  var encoder = FrameEncoder()
  var bytes = 0
  let handSeconds = median {
    bytes = 0
    for index in 0..<frames {
      encoder.encode(session: "s1", seq: index, frame: sampleFrames[index % 64]) { line in
        bytes += line.count
      }
    }
  }
  let foundationFrames = max(frames / 20, 100)
  let json = JSONEncoder()
  let codableFrames = sampleFrames.map(CodableFrame.init)
  let foundationSeconds = median {
    for index in 0..<foundationFrames {
      _ = try? json.encode(codableFrames[index % 64])
    }
  }
  var renderer = FrameRenderer(session: "s1", evaluator: evaluator)
  var engineBytes = 0
  let engineSeconds = median {
    engineBytes = 0
    for index in 0..<frames {
      renderer.render(seq: index, progress: Double(index) / Double(frames - 1)) {
        engineBytes += $0.count
      }
    }
  }
  let handRate = Double(frames) / handSeconds
  let foundationRate = Double(foundationFrames) / foundationSeconds
  report.add(
    "encode", "FrameEncoder", handRate, "frames/s",
    "\(Int(Double(bytes) / handSeconds / 1e6)) MB/s, \(bytes / frames) bytes a frame")
  report.add("encode", "JSONEncoder", foundationRate, "frames/s")
  report.add("encode", "FrameEncoder / JSONEncoder", handRate / foundationRate, "x")
  report.add(
    "encode", "FrameRenderer: evaluate + encode", Double(frames) / engineSeconds, "frames/s",
    "\(layerCount) layers, \(engineBytes / frames) bytes a frame")
}

@MainActor func runDecode() {
  var encoder = FrameEncoder()
  let lines = (0..<64).map { index in
    Array(
      encoder.encode(
        session: "s1", seq: index, frame: evaluator.frame(progress: Double(index) / 63)
      ).dropLast())
  }
  let decodeFrames = max(frames / 4, 100)
  var members = 0
  let typedSeconds = median {
    for index in 0..<decodeFrames {
      members += (try? JSONValue(parsing: lines[index % 64]))?.objectValue?.count ?? 0
    }
  }
  let foundationSeconds = median {
    for index in 0..<decodeFrames {
      let object = try? JSONSerialization.jsonObject(with: Data(lines[index % 64]))
      members += (object as? [String: Any])?.count ?? 0
    }
  }
  report.add(
    "decode", "JSONValue", Double(decodeFrames) / typedSeconds, "frames/s",
    "\(lines[0].count) bytes a frame")
  report.add(
    "decode", "JSONSerialization", Double(decodeFrames) / foundationSeconds, "frames/s",
    "checksum \(members)")
}

@MainActor func runStream() throws {
  let daemons = try daemonBuilds.map { try DaemonProcess(binDirectory: $0.directory) }
  defer { for daemon in daemons { daemon.stop() } }
  let benches = daemons.map { StreamBench(daemon: $0) }
  let limit = try SocketLimit(lines: try benches[benches.count - 1].sampleFrames(count: 64))
  let node = try nodeScript.flatMap { try NodePeer(script: $0) }
  defer { node?.stop() }
  let fps = 240
  var daemonRates = [[Double]](repeating: [], count: daemons.count)
  var daemonCPU = [[Double]](repeating: [], count: daemons.count)
  var limitRates: [Double] = []
  var nodeRates: [Double] = []
  var layers = 0
  var daemonBytes = [Int](repeating: 0, count: daemons.count)
  var nodeBytes = 0
  for _ in 0..<runs {
    for (index, bench) in benches.enumerated() {
      let daemonRun = try bench.run(frames: frames, fps: fps, readers: 1)
      daemonRates[index].append(Double(daemonRun.frames) / daemonRun.seconds)
      daemonCPU[index].append(daemonRun.cpuSeconds / Double(max(daemonRun.frames, 1)))
      layers = daemonRun.layers
      daemonBytes[index] = daemonRun.bytes / max(daemonRun.frames, 1)
    }
    let limitRun = try limit.run(frames: frames)
    limitRates.append(Double(limitRun.frames) / limitRun.seconds)
    if let node {
      let nodeRun = try node.run(frames: frames, cells: 24)
      nodeRates.append(Double(nodeRun.frames) / nodeRun.seconds)
      nodeBytes = nodeRun.bytes / max(nodeRun.frames, 1)
    }
  }
  let limitRate = Percentiles(limitRates).median
  let nodeRate = Percentiles(nodeRates).median
  for (index, build) in daemonBuilds.enumerated() {
    let daemonRate = Percentiles(daemonRates[index]).median
    report.add(
      "stream", labelled(build.label, "transitiond, 1 reader"), daemonRate, "frames/s",
      "\(layers) layers, \(daemonBytes[index]) bytes a frame, \(Int(daemonRate * Double(daemonBytes[index]) / 1e6)) MB/s"
    )
    report.add(
      "stream", labelled(build.label, "daemon CPU a frame"),
      Percentiles(daemonCPU[index]).median * 1e6,
      "µs",
      "/proc/<pid>/stat; what a free core would allow: \(Int(1 / max(Percentiles(daemonCPU[index]).median, 1e-9))) frames/s"
    )
    report.add(
      "stream", labelled(build.label, "transitiond / socket limit"), daemonRate / limitRate, "x")
    if node != nil {
      report.add(
        "stream", labelled(build.label, "transitiond / Node.js"), daemonRate / nodeRate, "x")
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
  for _ in 0..<runs {
    for (index, bench) in benches.enumerated() {
      let run = try bench.run(frames: frames, fps: fps, readers: 4)
      four[index].append(Double(run.frames) / run.seconds)
    }
  }
  for (index, build) in daemonBuilds.enumerated() {
    report.add(
      "stream", labelled(build.label, "transitiond, 4 readers"), Percentiles(four[index]).median,
      "frames/s", "in all")
  }
}

@MainActor func runScale() throws {
  var scenarios = [(1_000, 60, 50), (500, 120, 50)]
  if scaleSessions != nil || scaleFps != nil || scaleConnections != nil {
    scenarios = [(scaleSessions ?? 1_000, scaleFps ?? 60, scaleConnections ?? 50)]
  }
  for (sessions, fps, connections) in scenarios {
    var results = [[ScaleBench.Result]](repeating: [], count: daemonBuilds.count)
    for _ in 0..<min(runs, 3) {
      for (index, build) in daemonBuilds.enumerated() {
        let daemon = try DaemonProcess(binDirectory: build.directory, config: benchConfig)
        defer { daemon.stop() }
        results[index].append(
          try ScaleBench(daemon: daemon).run(
            sessions: sessions, fps: fps, connections: connections, seconds: scaleSeconds))
      }
    }
    for (index, build) in daemonBuilds.enumerated() {
      reportScale(
        results[index], label: build.label, sessions: sessions, fps: fps, connections: connections)
    }
  }
}

@MainActor func reportScale(
  _ results: [ScaleBench.Result], label: String, sessions: Int, fps: Int, connections: Int
) {
  let name = labelled(label, "\(sessions) × \(fps) fps / \(connections)")
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
  report.add("scale", "\(name): seq gaps", Double(results.map(\.gaps).max() ?? 0), "", "worst run")
  let read = results.map { Double($0.framesRead) / Double(max($0.framesDue, 1)) }
  report.add(
    "scale", "\(name): frames read / due", Percentiles(read).median, "",
    "\(results.last?.framesRead ?? 0) of \(results.last?.framesDue ?? 0)")
  report.add(
    "scale", "\(name): daemon CPU", Percentiles(results.map(\.cpuFraction)).median, "cores",
    "the readers: \(BenchReport.format(Percentiles(results.map(\.readerCPUFraction)).median)) cores"
  )
  report.add(
    "scale", "\(name): peak RSS",
    Double(results.map(\.peakResidentBytes).max() ?? 0) / 1_048_576, "MiB", "VmHWM")
}

@MainActor func runUpdate() throws {
  let fps = scaleFps ?? 60
  for build in daemonBuilds {
    let daemon = try DaemonProcess(binDirectory: build.directory, config: benchConfig)
    defer { daemon.stop() }
    let latency = try UpdateBench(daemon: daemon).run(updates: samples, background: 100, fps: fps)
    report.add(
      "update", labelled(build.label, "update → frame p50"), latency.median * 1e3, "ms",
      "100 sessions at \(fps) fps")
    report.add(
      "update", labelled(build.label, "update → frame p99"), latency.value(0.99) * 1e3, "ms")
  }
}

@MainActor func runBegin() throws {
  for build in daemonBuilds {
    let daemon = try DaemonProcess(binDirectory: build.directory, config: benchConfig)
    defer { daemon.stop() }
    let latency = try BeginBench(daemon: daemon).run(count: beginCount)
    report.add(
      "begin", labelled(build.label, "begin → reply p50"), latency.median * 1e3, "ms",
      "album-flip, 32 layers, \(beginCount) begins")
    report.add("begin", labelled(build.label, "begin → reply p99"), latency.value(0.99) * 1e3, "ms")
  }
}

@MainActor func runTap() throws {
  let scenes = [
    ("album-flip push", BenchContexts.albumPush),
    ("zoom-present present", BenchContexts.zoomPresent),
  ]
  let count = max(beginCount / 4, 50)
  // Interleaved: each build measures a slice of the taps in turn, so that the machine's load
  // weighs on both alike.
  let daemons = try daemonBuilds.map {
    try DaemonProcess(binDirectory: $0.directory, config: benchConfig)
  }
  defer { for daemon in daemons { daemon.stop() } }
  for (name, context) in scenes {
    var samples = [[Double]](repeating: [], count: daemons.count)
    for _ in 0..<runs {
      for (index, daemon) in daemons.enumerated() {
        samples[index] += try TapBench(daemon: daemon).run(
          count: count / runs + 1, context: context
        )
        .samples
      }
    }
    for (index, build) in daemonBuilds.enumerated() {
      let latency = Percentiles(samples[index])
      report.add(
        "tap", labelled(build.label, "\(name): begin+subscribe → first frame p50"),
        latency.median * 1e3, "ms", "\(samples[index].count) taps")
      report.add(
        "tap", labelled(build.label, "\(name): begin+subscribe → first frame p99"),
        latency.value(0.99) * 1e3, "ms")
    }
  }
}

@MainActor func runIdle() throws {
  for build in daemonBuilds {
    var startups: [Double] = []
    for _ in 0..<runs {
      let daemon = try DaemonProcess(binDirectory: build.directory)
      startups.append(daemon.startupSeconds)
      daemon.stop()
    }
    report.add(
      "idle", labelled(build.label, "start-up to first reply"), Percentiles(startups).median * 1e3,
      "ms")
    let daemon = try DaemonProcess(binDirectory: build.directory)
    defer { daemon.stop() }
    let client = try LineSocket(path: daemon.socketPath)
    _ = try client.request(#"{"op":"hello"}"#)
    let before = daemon.cpuSeconds
    sleep(2)
    report.add(
      "idle", labelled(build.label, "CPU while idle (2 s, one client)"),
      (daemon.cpuSeconds - before) * 1e3, "ms", "RSS \(daemon.residentBytes / 1_048_576) MiB")
  }
}

@MainActor func runDelta() throws {
  let scenes = [
    ("album-flip push, 24 cells", BenchContexts.albumPush, "album-flip"),
    ("zoom-present present", BenchContexts.zoomPresent, "zoom-present"),
  ]
  for build in daemonBuilds {
    let daemon = try DaemonProcess(binDirectory: build.directory, config: benchConfig)
    defer { daemon.stop() }
    let bench = DeltaBench(daemon: daemon)
    for (name, context, animator) in scenes {
      // The bytes are deterministic (the virtual clock): one run says it.
      guard let result = try? bench.run(context: context, animator: animator, fps: 60) else {
        print("delta     \(labelled(build.label, name)): this daemon has no delta frames")
        continue
      }
      report.add(
        "delta", labelled(build.label, "\(name): full / delta bytes"), result.ratio, "x",
        "\(result.frames) frames: \(result.fullBytes / max(result.frames, 1)) bytes a full frame, "
          + "\(result.deltaBytes / max(result.frames, 1)) a delta (key frame included)")
    }
  }
  // The encoder alone: the same frames, full and as deltas, one core.
  let sampleFrames = (0..<240).map { evaluator.frame(progress: Double($0) / 239) }
  var full = FrameEncoder(animatedFields: evaluator.animatedFields)
  var delta = FrameDeltaEncoder(animatedFields: evaluator.animatedFields)
  var fullBytes = 0
  var deltaBytes = 0
  let fullSeconds = median {
    fullBytes = 0
    for index in 0..<frames {
      full.encode(session: "s1", seq: index, frame: sampleFrames[index % 240]) {
        fullBytes += $0.count
      }
    }
  }
  let deltaSeconds = median {
    deltaBytes = 0
    for index in 0..<frames {
      delta.encode(session: "s1", seq: index, frame: sampleFrames[index % 240]) {
        deltaBytes += $0.count
      }
    }
  }
  report.add(
    "delta", "FrameEncoder (full)", Double(frames) / fullSeconds, "frames/s",
    "\(layerCount) layers, \(fullBytes / frames) bytes a frame")
  report.add(
    "delta", "FrameDeltaEncoder", Double(frames) / deltaSeconds, "frames/s",
    "\(deltaBytes / frames) bytes a frame")
}
