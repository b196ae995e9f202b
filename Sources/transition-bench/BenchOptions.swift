import Foundation
import TransitionWire

/// transition-bench's command line, read once into a value (`BenchOptions.parse`).
struct BenchOptions {
  /// The modes to run, in order.
  var modes: [BenchMode] = []
  /// Repetitions; medians are reported.
  var runs = 5
  /// Whether `--runs` was given (display runs each scenario once by default).
  var runsGiven = false
  /// Frames per throughput run.
  var frames = 20_000
  /// Layers of the engine benchmarks' timeline.
  var layerCount = 36
  /// scale: one scenario instead of the default two, when any is given.
  var scaleSessions: Int?
  var scaleFps: Int?
  var scaleConnections: Int?
  /// scale: the subscriptions' `encoding`.
  var scaleEncoding: FrameEncoding?
  /// scale and fairness: seconds each scenario streams.
  var scaleSeconds = 6.0
  /// Whether `--seconds` was given (display's own default is 30 s).
  var secondsGiven = false
  /// scale: the one CPU the daemon runs on, the benchmark's readers on the others; nil to
  /// let the kernel place both.
  var daemonCPU: Int?
  /// display: the refresh scenarios, in order (default: 60, 120 and 144 Hz, then 48–144 Hz
  /// variable refresh).
  var refreshes: [DisplayBench.Refresh] = [
    .fixed(hertz: 60), .fixed(hertz: 120), .fixed(hertz: 144), .variable(48...144),
  ]
  /// update: samples.
  var updates = 200
  /// begin: begins timed (tap times a quarter as many).
  var beginCount = 2_000
  /// Also write the results as JSON here.
  var jsonPath: String?
  /// The directory holding transitiond and the plugins.
  var binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  /// Another build's directory, measured beside this one.
  var baselineDirectory: URL?
  /// The Node.js peer of `stream`.
  var nodeScript = ["../shared/bench/peer_node.js", "../../shared/bench/peer_node.js"].first {
    FileManager.default.fileExists(atPath: $0)
  }

  static let usage = """
    usage: transition-bench [MODE…] [options]

    modes (default: all of them, in this order):
    \(BenchMode.usage)

    options:
      --runs N          repetitions; medians are reported (default 5; display: 1)
      --frames N        frames per throughput run (default 20000)
      --layers N        layers of the engine's timeline (default 36, as the album-flip push)
      --sessions N      scale: sessions (with --fps and --connections: one scenario);
                        update: the other sessions streaming (default 100)
      --fps N           scale: frame rate; update: the frame rate of every stream (default 60)
      --connections N   scale: connections the sessions are spread over (default 50)
      --encoding E      scale: the subscriptions' encoding, full or delta (default full)
      --seconds S       scale, fairness: seconds each scenario streams (default 6);
                        display: seconds each scenario is measured (default 30)
      --refresh R,…     display: the scenarios, each a rate in Hz or vrr (48–144 Hz);
                        default 60,120,144,vrr
      --daemon-cpu N    scale: run the daemon on CPU N alone and the readers on the other
                        CPUs (default: the kernel places both)
      --updates N       update: samples (default 200)
      --begins N        begin: begins timed (default 2000; tap and stages: a quarter)
      --daemon DIR      the directory holding transitiond and the plugins (default: this
                        tool's own directory)
      --baseline DIR    another build's directory: every daemon measurement runs for it too,
                        interleaved run by run, its rows marked "before"
      --node-script F   the Node.js peer (default: bench/peer_node.js under ../shared or
                        ../../shared)
      --json FILE       also write the results as JSON to FILE
    """

  /// A command line that cannot be run: the message says why.
  struct UsageError: Error {
    var message: String
  }

  /// Reads `arguments` (without the program name). `-h`/`--help` prints the usage and exits.
  static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
    var options = BenchOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      func text() throws(UsageError) -> String {
        guard let value = rest.popFirst() else {
          throw UsageError(message: "\(argument) needs a value")
        }
        return value
      }
      func number() throws(UsageError) -> Int {
        guard let value = Int(try text()), value > 0 else {
          throw UsageError(message: "\(argument) needs a positive number")
        }
        return value
      }
      if let mode = BenchMode(rawValue: argument) {
        options.modes.append(mode)
        continue
      }
      switch argument {
      case "all": options.modes += BenchMode.allCases
      case "--runs":
        options.runs = try number()
        options.runsGiven = true
      case "--frames": options.frames = try number()
      case "--layers": options.layerCount = max(try number(), 3)
      case "--sessions": options.scaleSessions = try number()
      case "--fps": options.scaleFps = try number()
      case "--connections": options.scaleConnections = try number()
      case "--encoding":
        guard let encoding = FrameEncoding(rawValue: try text()) else {
          throw UsageError(message: "--encoding needs full or delta")
        }
        options.scaleEncoding = encoding
      case "--seconds":
        guard let value = Double(try text()), value > 0 else {
          throw UsageError(message: "--seconds needs a positive number")
        }
        options.scaleSeconds = value
        options.secondsGiven = true
      case "--refresh":
        options.refreshes = try text().split(separator: ",").map { name throws(UsageError) in
          if name == "vrr" { return .variable(48...144) }
          guard let hertz = Double(name), (1...500).contains(hertz) else {
            throw UsageError(message: "--refresh needs rates in Hz (1 to 500) or vrr, got \(name)")
          }
          return .fixed(hertz: hertz)
        }
      case "--daemon-cpu":
        guard let cpu = Int(try text()), cpu >= 0 else {
          throw UsageError(message: "--daemon-cpu needs a CPU number")
        }
        options.daemonCPU = cpu
      case "--updates": options.updates = try number()
      case "--begins": options.beginCount = try number()
      case "--json": options.jsonPath = try text()
      case "--daemon": options.binDirectory = URL(fileURLWithPath: try text())
      case "--baseline": options.baselineDirectory = URL(fileURLWithPath: try text())
      case "--node-script": options.nodeScript = try text()
      case "-h", "--help":
        print(usage)
        exit(0)
      default:
        throw UsageError(message: "unknown argument \(argument)\n\(usage)")
      }
    }
    if options.modes.isEmpty { options.modes = BenchMode.allCases }
    return options
  }

  /// The daemons measured: the baseline ("before") first when there is one, then this build
  /// ("after", or unlabelled without a baseline).
  var daemonBuilds: [DaemonBuild] {
    (baselineDirectory.map { [DaemonBuild(label: "before", directory: $0)] } ?? []) + [
      DaemonBuild(label: baselineDirectory == nil ? "" : "after", directory: binDirectory)
    ]
  }
}

/// One build of the daemon under measurement.
struct DaemonBuild {
  /// "before", "after", or empty when only one build is measured.
  var label: String
  var directory: URL

  /// `name` marked with the build it measures when a baseline is compared.
  func labelled(_ name: String) -> String {
    label.isEmpty ? name : "\(label): \(name)"
  }
}
