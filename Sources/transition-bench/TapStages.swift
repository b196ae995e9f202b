import DataAnimator
import Foundation
import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionPluginSDK
import TransitionWire

/// A tap's CPU, stage by stage and in process, for the album-flip push of the benchmark's
/// context: the plugin host's part (read the context, build the timeline with the data
/// animator, write it in the binary form the host sends) and the daemon's (read the timeline,
/// compile it, render the first frame), and the daemon's read of the `begin` up to its
/// validated context (`ContextReadStage`). What `tap` measures end to end, without the sockets
/// and the wake-ups. Then a frame of the push as `stream` has the daemon render them. The JSON form's writing and reading, which a compiled plugin's timeline
/// takes, are measured beside them.
struct TapStages {
  let options: BenchOptions
  let report: BenchReport

  /// Renders frames 1 … `frames` of a push at `frames` fps; returns the bytes written. A
  /// function of its own so that `valgrind --tool=callgrind
  /// --toggle-collect='*renderFramesOfPush*'` counts a frame's instructions alone.
  @inline(never)
  static func renderFramesOfPush(_ renderer: inout FrameRenderer, frames: Int) -> Int {
    var bytes = 0
    for seq in 1...frames {
      bytes &+= renderer.render(seq: seq, progress: Double(seq) / Double(frames)) { $0.count }
    }
    return bytes
  }

  /// ``renderFramesOfPush(_:frames:)`` for the zoom present (`'*renderFramesOfZoom*'`),
  /// stepping its progress by adding (so that the compiler keeps the two functions apart).
  @inline(never)
  static func renderFramesOfZoom(_ renderer: inout FrameRenderer, frames: Int) -> Int {
    var bytes = 0
    var progress = 0.0
    for seq in 1...frames {
      progress += 1 / Double(frames)
      bytes &+= renderer.render(seq: seq, progress: progress) { $0.count }
    }
    return bytes
  }

  /// Renders frames 1 … `frames` of every renderer at `frames` fps, one frame of each in turn
  /// (`'*renderFramesInTurn*'`), each round `pause` seconds after the one before ends (as the
  /// daemon's ticks leave its cores to others); returns the bytes written and the seconds spent
  /// rendering. The renderers' sessions began a little apart, as `scale`'s do, so no two show
  /// the same progress in a round.
  @inline(never)
  static func renderFramesInTurn(
    _ renderers: inout [FrameRenderer], frames: Int, pause: Double = 0
  ) -> (bytes: Int, seconds: Double) {
    var bytes = 0
    var seconds = 0.0
    let phase = 1 / Double(max(renderers.count, 1))
    for seq in 1...frames {
      let start = Monotonic.now
      for index in renderers.indices {
        let progress = (Double(seq) - Double(index) * phase) / Double(frames)
        bytes &+= renderers[index].render(seq: seq, progress: progress) { $0.count }
      }
      seconds += Monotonic.now - start
      if pause > 0 { usleep(UInt32(pause * 1e6)) }
    }
    return (bytes, seconds)
  }

  /// The timeline the data animator `name` builds for `context`.
  private static func timeline(of name: String, for context: String) throws -> (
    animator: DataAnimator, binary: [UInt8]
  ) {
    let file = DaemonProcess.animatorDirectory + "/\(name).json"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let animator: DataAnimator
    switch DataAnimator.read(bytes, name: name, file: file) {
    case .success(let read): animator = read
    case .failure(let error): throw BenchError("\(file): \(error)")
    }
    guard
      case .timeline(let binary) = animator.outcome(
        forContextJSON: Array(context.utf8), encoding: .binary)
    else {
      throw BenchError("\(name) declined the benchmark's context")
    }
    return (animator, binary)
  }

  func run() throws {
    let (animator, timelineBinary) = try Self.timeline(
      of: "album-flip", for: BenchContexts.albumPush)
    let contextJSON = Array(BenchContexts.albumPush.utf8)
    let context = try TransitionContext(json: try JSONValue(parsing: contextJSON))
    let timeline = try Timeline(binary: timelineBinary)
    let timelineJSON = timeline.jsonText
    // A tap's `begin`, as `tap` sends it.
    let beginLine = Array(
      #"{"op":"begin","session":"tap","context":\#(BenchContexts.albumPush)}"#.utf8)
    let taps = max(options.beginCount / 4, 100)
    var checksum = 0
    let stages: [(name: String, body: () throws -> Void)] = [
      (
        "host: context → timeline",
        {
          if case .timeline(let binary) = animator.outcome(
            forContextJSON: contextJSON, encoding: .binary)
          {
            checksum &+= binary.count
          }
        }
      ),
      ("host: context read", { checksum &+= try ContextReadStage.hostRead(contextJSON) }),
      (
        "daemon: begin read up to its context",
        { checksum &+= try ContextReadStage.daemonRead(beginLine) }
      ),
      (
        "host: timeline built",
        { checksum &+= try animator.timeline(for: context, duration: 1)?.layers.count ?? 0 }
      ),
      ("host: timeline written", { checksum &+= timeline.binaryEncoded.count }),
      ("host: timeline written as JSON", { checksum &+= timeline.jsonText.count }),
      ("daemon: timeline read", { checksum &+= try Self.readTimeline(timelineBinary) }),
      (
        "daemon: timeline read from JSON",
        { checksum &+= try Timeline(jsonBytes: timelineJSON).layers.count }
      ),
      (
        "daemon: compiled + first frame",
        { checksum &+= Self.compileAndRenderFirstFrame(timeline) }
      ),
    ]
    for stage in stages {
      var samples: [Double] = []
      for _ in 0..<options.runs {
        let start = Monotonic.now
        for _ in 0..<taps { try stage.body() }
        samples.append((Monotonic.now - start) / Double(taps))
      }
      report.add(
        "stages", stage.name, Percentiles(samples).median * 1e6, "µs",
        "album-flip push, \(timeline.layers.count) layers, a timeline of \(timelineBinary.count) bytes (\(timelineJSON.count) as JSON); median of \(options.runs) × \(taps)"
      )
    }
    // What `stream` asks of the daemon a frame (every frame of the push at 240 fps, one
    // renderer), and what `scale` asks (the zoom present's).
    let zoom = try Timeline(
      binary: try Self.timeline(of: "zoom-present", for: BenchContexts.zoomPresent).binary)
    let scenes: [(name: String, timeline: Timeline, render: (inout FrameRenderer, Int) -> Int)] =
      [
        ("push", timeline, Self.renderFramesOfPush),
        ("zoom present", zoom, Self.renderFramesOfZoom),
      ]
    let frames = 240
    // The daemon's sessions write their lines into one buffer (`FrameScratch`).
    let scratch = FrameScratch()
    for scene in scenes {
      var samples: [Double] = []
      for _ in 0..<options.runs {
        var renderer = FrameRenderer(
          session: "stream", timeline: scene.timeline, scratch: scratch)
        // The template is built at the first frame: not part of a frame's work.
        checksum &+= renderer.render(seq: 0, progress: 0) { $0.count }
        let start = Monotonic.now
        checksum &+= scene.render(&renderer, frames)
        samples.append((Monotonic.now - start) / Double(frames))
      }
      report.add(
        "stages", "daemon: a frame of the \(scene.name)", Percentiles(samples).median * 1e6,
        "µs",
        "every frame at \(frames) fps, one renderer; median of \(options.runs) runs")
    }
    // The same frames as `scale` has them rendered: a frame of each of 1,000 sessions in
    // turn, so that each renderer's state has gone cold since its previous frame; back to back,
    // then asleep for a 60 fps tick between rounds, as the daemon is between its ticks. Then
    // 100, whose state stays in the caches back to back: a tick apart, a round's time is the
    // wake's own plus each session's cold frame, told apart by the two counts.
    func secondsAFrame(renderers count: Int, pause: Double) -> Double {
      var samples: [Double] = []
      for _ in 0..<options.runs {
        // Alike sessions, as the daemon makes them: copies of one renderer
        // (`CompiledTimelines`), which share its compiled timeline and template.
        var prototype = FrameRenderer(session: "z", timeline: zoom, scratch: scratch)
        checksum &+= prototype.render(seq: 0, progress: 0) { $0.count }
        var renderers = (0..<count).map { prototype.renamed(to: "z\($0)") }
        for index in renderers.indices {
          checksum &+= renderers[index].render(seq: 0, progress: 0) { $0.count }
        }
        let (bytes, seconds) = Self.renderFramesInTurn(&renderers, frames: 60, pause: pause)
        checksum &+= bytes
        samples.append(seconds / Double(60 * count))
      }
      return Percentiles(samples).median
    }
    let tick = 1.0 / 60
    let few = 100
    let inTurn = secondsAFrame(renderers: 1_000, pause: 0)
    let apart = secondsAFrame(renderers: 1_000, pause: tick)
    let fewInTurn = secondsAFrame(renderers: few, pause: 0)
    let fewApart = secondsAFrame(renderers: few, pause: tick)
    let coldFrame = (apart * 1_000 - fewApart * Double(few)) / Double(1_000 - few)
    let name = "daemon: a frame of the zoom present"
    let median = "median of \(options.runs) runs"
    report.add(
      "stages", "\(name), 1,000 in turn", inTurn * 1e6, "µs",
      "every frame at 60 fps of 1,000 renderers, one frame of each in turn (as scale renders them); \(median)"
    )
    report.add(
      "stages", "\(name), 1,000 in turn, a tick apart", apart * 1e6, "µs",
      "as above, each round 16.7 ms after the one before (the machine's other work in between)")
    report.add(
      "stages", "\(name), \(few) in turn", fewInTurn * 1e6, "µs",
      "as 1,000 in turn, back to back: state that stays in the caches")
    report.add(
      "stages", "\(name), \(few) in turn, a tick apart", fewApart * 1e6, "µs",
      "the same \(few), each round 16.7 ms after the one before")
    report.add(
      "stages", "\(name) a tick apart, each session's", coldFrame * 1e6, "µs",
      "(a round of 1,000 − a round of \(few)) / \(1_000 - few): a frame from state gone cold"
    )
    report.add(
      "stages", "\(name) a tick apart, the wake's own", (fewApart - coldFrame) * Double(few) * 1e6,
      "µs a tick",
      "a round of \(few) − \(few) cold frames: what waking for the tick costs")
    precondition(checksum != 0)
  }

  /// The daemon reading a timeline the plugin host sent; returns its layer count. Its own
  /// function, so that `valgrind --tool=callgrind --toggle-collect='*TapStages*readTimeline*'`
  /// counts the reads alone.
  @inline(never)
  private static func readTimeline(_ binary: [UInt8]) throws -> Int {
    try Timeline(binary: binary).layers.count
  }

  /// The daemon compiling a timeline and rendering its first frame; returns the frame's
  /// length. Its own function, so that `valgrind --tool=callgrind
  /// --toggle-collect='*TapStages*compileAndRenderFirstFrame*'` counts these alone.
  @inline(never)
  private static func compileAndRenderFirstFrame(_ timeline: Timeline) -> Int {
    var renderer = FrameRenderer(session: "tap", timeline: timeline)
    return renderer.render(seq: 0, progress: 0) { $0.count }
  }
}
