import Foundation
import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// The engine's benchmarks, in process on one core: evaluation, encoding, a client's decoding
/// and the delta encoder, on an album-flip-like timeline of `--layers` layers.
struct EngineBenchmarks {
  let options: BenchOptions
  let report: BenchReport
  let timeline: Timeline
  let evaluator: TimelineEvaluator

  init(options: BenchOptions, report: BenchReport) {
    self.options = options
    self.report = report
    timeline = BenchTimeline.albumFlipLike(layers: options.layerCount)
    evaluator = TimelineEvaluator(timeline)
  }

  /// Runs `body` `--runs` times; returns the median seconds.
  func median(_ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<options.runs {
      let start = Monotonic.now
      body()
      samples.append(Monotonic.now - start)
    }
    return Percentiles(samples).median
  }

  func evaluate() {
    var frame = Frame()
    var checksum = 0.0
    let seconds = median {
      for index in 0..<options.frames {
        evaluator.evaluate(progress: Double(index) / Double(options.frames - 1), into: &frame)
        checksum += frame.layers[index % options.layerCount].frame.x
      }
    }
    report.add(
      "evaluate", "layer states", Double(options.frames * options.layerCount) / seconds / 1e6,
      "M/s",
      "\(options.layerCount) layers, \(Int(Double(options.frames) / seconds)) frames/s, checksum \(Int(checksum))"
    )
  }

  func encode() {
    let sampleFrames = (0..<64).map { evaluator.frame(progress: Double($0) / 63) }
    var encoder = FrameEncoder()
    var bytes = 0
    let handSeconds = median {
      bytes = 0
      for index in 0..<options.frames {
        encoder.encode(session: "s1", seq: index, frame: sampleFrames[index % 64]) { line in
          bytes += line.count
        }
      }
    }
    let foundationFrames = max(options.frames / 20, 100)
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
      for index in 0..<options.frames {
        renderer.render(seq: index, progress: Double(index) / Double(options.frames - 1)) {
          engineBytes += $0.count
        }
      }
    }
    let handRate = Double(options.frames) / handSeconds
    let foundationRate = Double(foundationFrames) / foundationSeconds
    report.add(
      "encode", "FrameEncoder", handRate, "frames/s",
      "\(Int(Double(bytes) / handSeconds / 1e6)) MB/s, \(bytes / options.frames) bytes a frame")
    report.add("encode", "JSONEncoder", foundationRate, "frames/s")
    report.add("encode", "FrameEncoder / JSONEncoder", handRate / foundationRate, "x")
    report.add(
      "encode", "FrameRenderer: evaluate + encode", Double(options.frames) / engineSeconds,
      "frames/s",
      "\(options.layerCount) layers, \(engineBytes / options.frames) bytes a frame")
  }

  func decode() {
    var encoder = FrameEncoder()
    let lines = (0..<64).map { index in
      Array(
        encoder.encode(
          session: "s1", seq: index, frame: evaluator.frame(progress: Double(index) / 63)
        ).dropLast())
    }
    let decodeFrames = max(options.frames / 4, 100)
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

  func deltaEncoder() {
    // The encoder alone: the same frames, full and as deltas, one core.
    let sampleFrames = (0..<240).map { evaluator.frame(progress: Double($0) / 239) }
    var full = FrameEncoder(animatedFields: evaluator.animatedFields)
    var delta = FrameDeltaEncoder(animatedFields: evaluator.animatedFields)
    var fullBytes = 0
    var deltaBytes = 0
    let fullSeconds = median {
      fullBytes = 0
      for index in 0..<options.frames {
        full.encode(session: "s1", seq: index, frame: sampleFrames[index % 240]) {
          fullBytes += $0.count
        }
      }
    }
    let deltaSeconds = median {
      deltaBytes = 0
      for index in 0..<options.frames {
        delta.encode(session: "s1", seq: index, frame: sampleFrames[index % 240]) {
          deltaBytes += $0.count
        }
      }
    }
    report.add(
      "delta", "FrameEncoder (full)", Double(options.frames) / fullSeconds, "frames/s",
      "\(options.layerCount) layers, \(fullBytes / options.frames) bytes a frame")
    report.add(
      "delta", "FrameDeltaEncoder", Double(options.frames) / deltaSeconds, "frames/s",
      "\(deltaBytes / options.frames) bytes a frame")
  }

  func geometry() {
    // The same frames for a plain stream and a geometry stream, full and as deltas, one core:
    // what `"geometry": "quad"` costs the encoder.
    let sampleFrames = (0..<240).map { evaluator.frame(progress: Double($0) / 239) }
    let encoders: [(String, () -> (Int, Frame) -> Int)] = [
      (
        "FrameEncoder (plain, one timeline's template)",
        {
          var encoder = FrameEncoder(animatedFields: evaluator.animatedFields)
          return { seq, frame in encoder.encode(session: "s1", seq: seq, frame: frame) { $0.count }
          }
        }
      ),
      (
        "FrameEncoder (plain, field by field)",
        {
          var encoder = FrameEncoder()
          return { seq, frame in encoder.encode(session: "s1", seq: seq, frame: frame) { $0.count }
          }
        }
      ),
      (
        "FrameEncoder (geometry quad)",
        {
          var encoder = FrameEncoder(geometry: .quad)
          return { seq, frame in encoder.encode(session: "s1", seq: seq, frame: frame) { $0.count }
          }
        }
      ),
      (
        "FrameDeltaEncoder (plain)",
        {
          var encoder = FrameDeltaEncoder(animatedFields: evaluator.animatedFields)
          return { seq, frame in encoder.encode(session: "s1", seq: seq, frame: frame) { $0.count }
          }
        }
      ),
      (
        "FrameDeltaEncoder (geometry quad)",
        {
          var encoder = FrameDeltaEncoder(geometry: .quad)
          return { seq, frame in encoder.encode(session: "s1", seq: seq, frame: frame) { $0.count }
          }
        }
      ),
    ]
    for (name, make) in encoders {
      let encode = make()
      var bytes = 0
      let seconds = median {
        bytes = 0
        for index in 0..<options.frames {
          bytes += encode(index, sampleFrames[index % 240])
        }
      }
      report.add(
        "geometry", name, Double(options.frames) / seconds, "frames/s",
        "\(options.layerCount) layers, \(bytes / options.frames) bytes a frame")
    }
  }
}
