import FrameStreaming
import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit
import TransitionWire

/// The fuzzer's one check: arbitrary bytes taken through the path a request line takes in the
/// daemon, asserting what the daemon promises (docs/security.md, "Fuzzing").
///
/// For every input: the request parser, the reply that echoes its id. For a `begin` whose
/// context validates: every loaded animator that serves the operation makes its timeline
/// through the plugin host's registry (the C ABI for a library, as the daemon calls it), the timeline is decoded and validated,
/// evaluated at a few progress values and encoded with `FrameEncoder`. For `finish` and
/// `cancel`: a clock released with the request's velocity. A trap anywhere is the fuzzer's
/// finding; a broken promise is returned as a problem.
public struct RequestCheck: Sendable {
  /// The progress values each timeline is evaluated at.
  public static let progressValues: [Double] = [0, 0.25, 0.5, 0.999, 1]

  private let registry: PluginRegistry

  /// Loads the animator plugins found in `pluginDirectory` (the built `lib<Name>.so` files)
  /// and the data animators of `animatorDirectories` (`<name>.json` files); `animatorNames`
  /// tells which loaded.
  public init(pluginDirectory: String, animatorDirectories: [String]) {
    registry = loadFuzzPlugins(from: pluginDirectory, animatorDirectories: animatorDirectories)
  }

  /// The names of the loaded animators.
  public var animatorNames: [String] { registry.animators.map(\.name) }

  /// Runs `bytes` (one request line, without its `\n`) through the check.
  /// - Returns: a description of the first broken promise, or nil when all held.
  public func problem(with bytes: [UInt8]) -> String? {
    let update = bytes.withUnsafeBufferPointer(UpdateLine.init)
    let request: Request
    do {
      request = try Request(line: bytes)
    } catch {
      if update != nil { return "an update the general path refuses is read by UpdateLine" }
      return replyProblem(WireMessage.failure(id: error.id, error.error), id: error.id)
    }
    if let update, let problem = Self.updateProblem(update, request) { return problem }
    if let problem = replyProblem(WireMessage.success(id: request.id), id: request.id) {
      return problem
    }
    if case .string(let session)? = request.body.value["session"],
      session.unicodeScalars.contains(where: Self.isControl),
      SessionID.problem(with: session) == nil
    {
      return "session id \(session.debugDescription) with a control character is accepted"
    }
    switch request.op {
    case "begin": return beginProblem(request)
    case "finish", "cancel": return releaseProblem(request)
    default: return nil
    }
  }

  /// C0, DEL, C1, the zero-width and bidi format characters, the BOM, U+2028 and U+2029.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0xFEFF: true
    default: false
    }
  }

  /// What ``UpdateLine`` read must be what the general path reads: an `update` with nothing
  /// but its members, the same session, numbers (to the bit), touch and id.
  private static func updateProblem(_ update: UpdateLine, _ request: Request) -> String? {
    let members = request.body.value.objectValue ?? [:]
    func number(_ value: JSONValue?) -> UInt64? { value?.numberValue?.bitPattern }
    let touch = members["touch"]?.arrayValue
    let agrees =
      request.op == "update" && request.id == update.id
      && Set(members.keys).isSubset(of: ["op", "id", "session", "progress", "touch"])
      && members["session"]?.stringValue == update.session
      && number(members["progress"]) == update.progress?.bitPattern
      && number(touch?.first) == update.touch?.x.bitPattern
      && number(touch?.last) == update.touch?.y.bitPattern && (touch?.count ?? 2) == 2
    return agrees ? nil : "UpdateLine reads \(update) where the general path reads another request"
  }

  /// A reply must be one line of JSON that echoes the id's text.
  private func replyProblem(_ line: [UInt8], id: RequestID?) -> String? {
    guard line.last == UInt8(ascii: "\n"), !line.dropLast().contains(UInt8(ascii: "\n")),
      let reply = try? JSONValue(parsing: line.dropLast())
    else { return "the reply is not one line of JSON: \(String(decoding: line, as: UTF8.self))" }
    guard let id else { return nil }
    let echo = Array(#""id":"#.utf8) + id.text
    guard reply["id"] == id.value, line.firstRange(of: echo) != nil else {
      return "the reply \(String(decoding: line, as: UTF8.self)) does not echo the id "
        + String(decoding: id.text, as: UTF8.self)
    }
    return nil
  }

  private func beginProblem(_ request: Request) -> String? {
    guard let contextText = request.contextText,
      let context = try? TransitionContext(jsonBytes: contextText)
    else { return nil }
    var contextJSON = context.json
    if case .number(let duration)? = request.body.value["duration"],
      duration > 0, duration <= ContextBounds.duration.upperBound,
      case .object(var members) = contextJSON
    {
      members["duration"] = .number(duration)
      contextJSON = .object(members)
    }
    var sink = ByteSink(capacity: 1024)
    sink.appendJSON(contextJSON)
    for animator in registry.animators where animator.serves(context.operation) {
      let result = registry.makeTimeline(animator: animator.name, contextJSON: sink.bytes)
      guard let timeline = try? result.decodedTimeline() else { continue }
      if let problem = Self.framesProblem(timeline, animator: animator.name) { return problem }
    }
    return nil
  }

  /// Evaluates `timeline` at ``progressValues`` and encodes each frame: every number must be
  /// finite, in the frame and in its JSON.
  static func framesProblem(_ timeline: Timeline, animator: String) -> String? {
    let evaluator = TimelineEvaluator(timeline)
    var encoder = FrameEncoder()
    for progress in Self.progressValues {
      var frame = evaluator.frame(progress: progress)
      frame.t = progress * timeline.duration
      for layer in frame.layers {
        let numbers =
          [layer.frame.x, layer.frame.y, layer.frame.width, layer.frame.height]
          + [layer.anchor.x, layer.anchor.y, layer.alpha, layer.z] + layer.transform.elements
        if !numbers.allSatisfy(\.isFinite) {
          return "\(animator): layer \(layer.id) at progress \(progress) has a non-finite number"
        }
      }
      let line = encoder.encode(session: "s1", seq: 0, frame: frame)
      guard let event = try? JSONValue(parsing: line.dropLast()),
        let layers = event["layers"]?.arrayValue
      else { return "\(animator): the frame at progress \(progress) is not JSON" }
      for layer in layers {
        for key in ["frame", "anchor", "transform", "alpha", "z"] {
          guard let value = layer[key] else { continue }
          let numbers = value.arrayValue ?? [value]
          if !numbers.allSatisfy({ $0.numberValue?.isFinite == true }) {
            return
              "\(animator): \(key) at progress \(progress) is not all numbers: \(value.serialized)"
          }
        }
      }
    }
    return nil
  }

  /// A release with the request's velocity of a 0.3 s interactive clock at progress 0.5 and a
  /// hair from either end: refused, or progress stays in [0, 1] and the release ends within
  /// 10 durations.
  private func releaseProblem(_ request: Request) -> String? {
    guard case .number(let velocity)? = request.body.value["velocity"] else { return nil }
    for start in [0.5, Double.leastNonzeroMagnitude, 1 - 0x1p-53] {
      guard var clock = try? TransitionClock(duration: 0.3, interactive: true, at: 0),
        (try? clock.update(progress: start, at: 0)) != nil
      else { return "an interactive clock refused progress \(start)" }
      do {
        if request.op == "finish" {
          try clock.finish(velocity: velocity, at: 0)
        } else {
          try clock.cancel(velocity: velocity, at: 0)
        }
      } catch {
        guard error.code == .outOfRange || error.code == .nonFinite,
          !(-100...100).contains(velocity)
        else { return "velocity \(velocity) from \(start) is refused: \(error.message)" }
        continue
      }
      guard let end = clock.endTime, end.isFinite, end <= 3 else {
        return "velocity \(velocity) from \(start): the release ends at "
          + (clock.endTime.map { "\($0)" } ?? "nil") + " s"
      }
      for step in 0...20 {
        let progress = clock.progress(at: end * Double(step) / 20)
        guard progress >= 0, progress <= 1 else {
          return "velocity \(velocity) from \(start): progress \(progress) is outside [0, 1]"
        }
      }
    }
    return nil
  }

}
