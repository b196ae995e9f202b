import Foundation

/// transition-bench: measures the engine, the wire encoder and a real transitiond.
///
/// Each measurement runs several times and reports the median, so that a noisy machine does
/// not decide the figure; compared measurements run side by side in the same process,
/// interleaved run by run. No test asserts a time: this tool is where speed is measured.

func fail(_ message: String, status: Int32 = 64) -> Never {
  DaemonProcess.running.terminateAll()
  FileHandle.standardError.write(Data("transition-bench: \(message)\n".utf8))
  exit(status)
}

if let helper = FairnessLoad.helperArguments(CommandLine.arguments) {
  FairnessLoad.runHelper(helper)
}
if let frame = EchoProcess.helperArguments(CommandLine.arguments) {
  EchoProcess.runHelper(frame: frame)
}

let options: BenchOptions
do {
  options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  fail(error.message)
}

let report = BenchReport()
report.machine = BenchReport.describeMachine()
report.machine["daemon"] = options.binDirectory.path
if let baseline = options.baselineDirectory { report.machine["baseline"] = baseline.path }
print(
  "transition-bench: median of \(options.runs) runs; \(report.machine["nproc"] ?? "?") cores, \(report.machine["cpu"] ?? "unknown CPU")"
)

let engine = EngineBenchmarks(options: options, report: report)
let daemons = DaemonBenchmarks(options: options, report: report)
do {
  for mode in options.modes {
    switch mode {
    case .evaluate: engine.evaluate()
    case .encode: engine.encode()
    case .decode: engine.decode()
    case .stages:
      try TapStages(options: options, report: report).run()
      try UpdateStage(options: options, report: report).run()
    case .stream: try daemons.stream()
    case .scale: try daemons.scale()
    case .update: try daemons.update()
    case .restart: try daemons.restart()
    case .render: try daemons.render()
    case .begin: try daemons.begin()
    case .tap: try daemons.tap()
    case .fairness: try daemons.fairness()
    case .idle: try daemons.idle()
    case .geometry: engine.geometry()
    case .display: try daemons.display()
    case .delta:
      try daemons.delta()
      engine.deltaEncoder()
    }
  }
} catch {
  fail("\(error)", status: 69)
}

if let jsonPath = options.jsonPath {
  do {
    try Data(report.json().utf8).write(to: URL(fileURLWithPath: jsonPath))
    print("wrote \(jsonPath)")
  } catch {
    fail("cannot write \(jsonPath): \(error)", status: 73)
  }
}
