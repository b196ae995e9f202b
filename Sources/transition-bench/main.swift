import Foundation
import TransitionJSON
import TransitionKit
import TransitionWire

/// transition-bench: measures the engine's frame evaluation and the wire's frame encoding.
///
/// Each measurement runs several times and reports the median, so that a noisy machine does
/// not decide the figure; compared measurements run side by side in the same process.

let usage = """
  usage: transition-bench [evaluate|encode|decode|stream|begin|all] [--runs N] [--frames N]
                          [--layers N] [--begins N]

  evaluate  layer states per second evaluating an album-flip-like timeline (one core)
  encode    frame events per second: FrameEncoder vs Foundation's JSONEncoder, same frames,
            and FrameRenderer (evaluate + encode: one stream tick's work)
  decode    frame events per second parsed as a client parses them: JSONValue (TransitionClient)
            vs Foundation's JSONSerialization, same lines
  stream    frames per second read from a real transitiond (started from this directory on a
            temporary socket) with the virtual clock: one reader, then four at once
  begin     begin latency through a real transitiond (started likewise): N album-flip begins
            one after another over one connection, median and p99 of the round trip
  all       all five (default)

  options:
    --runs N     repetitions; the median is reported (default 7)
    --frames N   frames per repetition (default 20000)
    --layers N   layers in the timeline (default 25)
  --begins N   begins timed by the begin mode (default 2000)
  """

var mode = "all"
var runs = 7
var frames = 20_000
var layerCount = 25
var beginCount = 2_000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func number() -> Int {
    guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
      FileHandle.standardError.write(
        Data("transition-bench: \(argument) needs a positive number\n".utf8))
      exit(64)
    }
    return value
  }
  switch argument {
  case "evaluate", "encode", "decode", "stream", "begin", "all": mode = argument
  case "--runs": runs = number()
  case "--frames": frames = number()
  case "--layers": layerCount = max(number(), 3)
  case "--begins": beginCount = number()
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    FileHandle.standardError.write(
      Data("transition-bench: unknown argument \(argument)\n\(usage)\n".utf8))
    exit(64)
  }
}

let timeline = BenchTimeline.albumFlipLike(layers: layerCount)
let evaluator = TimelineEvaluator(timeline)

/// Runs `body` `runs` times; returns the median seconds.
@MainActor func median(_ body: () -> Void) -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  samples.sort()
  return samples[samples.count / 2]
}

func format(_ value: Double) -> String {
  String(format: value >= 100 ? "%.0f" : "%.2f", value)
}

print("transition-bench: \(layerCount) layers, \(frames) frames a run, median of \(runs) runs")

if mode == "evaluate" || mode == "all" {
  var frame = Frame()
  var checksum = 0.0
  let seconds = median {
    for index in 0..<frames {
      evaluator.evaluate(progress: Double(index) / Double(frames - 1), into: &frame)
      checksum += frame.layers[index % layerCount].frame.x
    }
  }
  let states = Double(frames * layerCount) / seconds
  print(
    "evaluate  \(format(states / 1e6)) M layer states/s  (\(format(Double(frames) / seconds)) frames/s, checksum \(Int(checksum)))"
  )
}

if mode == "encode" || mode == "all" {
  let sampleFrames = (0..<64).map { evaluator.frame(progress: Double($0) / 63) }
  var encoder = FrameEncoder()
  var bytes = 0
  let handSeconds = median {
    bytes = 0
    for index in 0..<frames {
      bytes += encoder.encode(session: "s1", seq: index, frame: sampleFrames[index % 64]).count
    }
  }
  let foundationFrames = max(frames / 10, 100)
  let json = JSONEncoder()
  let codableFrames = sampleFrames.map(CodableFrame.init)
  var foundationBytes = 0
  let foundationSeconds = median {
    foundationBytes = 0
    for index in 0..<foundationFrames {
      foundationBytes += (try? json.encode(codableFrames[index % 64]))?.count ?? 0
    }
  }
  let handRate = Double(frames) / handSeconds
  let foundationRate = Double(foundationFrames) / foundationSeconds
  print(
    "encode    FrameEncoder \(format(handRate)) frames/s, \(format(Double(bytes) / handSeconds / 1e6)) MB/s, \(bytes / frames) bytes a frame"
  )
  print(
    "encode    JSONEncoder  \(format(foundationRate)) frames/s, \(format(Double(foundationBytes) / foundationSeconds / 1e6)) MB/s"
  )
  print("encode    ratio        \(format(handRate / foundationRate))x")
  var renderer = FrameRenderer(session: "s1", evaluator: evaluator)
  var renderedBytes = 0
  let renderSeconds = median {
    renderedBytes = 0
    for index in 0..<frames {
      let progress = Double(index) / Double(frames - 1)
      renderedBytes += renderer.render(seq: index, progress: progress).count
    }
  }
  print(
    "encode    FrameRenderer \(format(Double(frames) / renderSeconds)) frames/s evaluated and encoded, \(format(Double(renderedBytes) / renderSeconds / 1e6)) MB/s"
  )
}

if mode == "decode" || mode == "all" {
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
  print(
    "decode    JSONValue         \(format(Double(decodeFrames) / typedSeconds)) frames/s (\(lines[0].count) bytes a frame)"
  )
  print(
    "decode    JSONSerialization \(format(Double(decodeFrames) / foundationSeconds)) frames/s (checksum \(members))"
  )
}

if mode == "stream" || mode == "all" {
  do {
    let bench = try StreamBench()
    defer { bench.stop() }
    let fps = 240
    let seconds = Double(frames) / Double(fps)
    for readers in [1, 4] {
      var result = (frames: 0, bytes: 0, layers: 0)
      var failure: Error?
      let elapsed = median {
        do {
          result = try bench.run(seconds: seconds, fps: fps, readers: readers)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      print(
        "stream    \(readers) reader\(readers == 1 ? " " : "s"): \(format(Double(result.frames) / elapsed)) frames/s, "
          + "\(format(Double(result.bytes) / elapsed / 1e6)) MB/s (\(result.layers) layers a frame)"
      )
    }
  } catch {
    FileHandle.standardError.write(Data("transition-bench: stream: \(error)\n".utf8))
    exit(69)
  }
}

if mode == "begin" || mode == "all" {
  do {
    let bench = try StreamBench()
    defer { bench.stop() }
    let samples = try BeginBench(bench: bench).run(count: beginCount)
    let median = BeginBench.percentile(samples, 0.5) * 1e6
    let p99 = BeginBench.percentile(samples, 0.99) * 1e6
    print("begin     \(samples.count) begins: median \(format(median)) µs, p99 \(format(p99)) µs")
  } catch {
    FileHandle.standardError.write(Data("transition-bench: begin: \(error)\n".utf8))
    exit(69)
  }
}
