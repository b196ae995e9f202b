import DataAnimator
import TransitionJSON
import TransitionKit
import TransitionPluginSDK

/// The fuzzer's check of the data animator format (docs/animators.md): arbitrary bytes read as
/// a `<name>.json` file, asserting what the format promises.
///
/// Every problem a file has is reported with a line and a column from 1, a JSON pointer and a
/// message. A file that validates builds, for every operation it serves on each of a few
/// contexts, a timeline that decodes and validates (as the daemon decodes what the plugin host
/// returns) and evaluates at a few progress values, or declines, or fails with a message: it
/// never traps.
public struct AnimatorFileCheck: Sendable {
  /// Contexts each valid file is built with: roles and no roles, a match and none, a container
  /// without width.
  static let contexts: [JSONValue] = {
    let cells: [JSONValue] = (0..<6).map { index in
      .object([
        "id": .string("cell-\(index)"),
        "frame": .array(
          [.number(Double(index % 3) * 100), .number(80 + Double(index / 3) * 100), 98, 98]),
        "role": "cell",
      ])
    }
    let plainCells: [JSONValue] = (0..<6).map { index in
      .object([
        "id": .string("photo-\(index)"),
        "frame": .array(
          [.number(Double(index % 3) * 100), .number(80 + Double(index / 3) * 100), 98, 98]),
      ])
    }
    let grid: JSONValue = .object(["background": "#ffffffff", "layers": .array(cells)])
    let detail: JSONValue = .object([
      "background": "#000000ff",
      "layers": [["id": "picture", "frame": [0, 100, 300, 300], "background": "#ff0000ff"]],
    ])
    var contexts: [JSONValue] = []
    for operation in TransitionOperation.allCases {
      let forward = operation == .push || operation == .present
      let (from, to) = forward ? (grid, detail) : (detail, grid)
      contexts.append(
        .object([
          "operation": .string(operation.rawValue), "container": [300, 600], "from": from, "to": to,
          "selected": "cell-1", "match": "picture",
        ]))
      contexts.append(
        .object([
          "operation": .string(operation.rawValue), "container": [0, 600],
          "from": forward ? .object(["layers": .array(plainCells)]) : detail,
          "to": forward ? detail : .object(["layers": .array(plainCells)]),
        ]))
    }
    return contexts
  }()

  public init() {}

  /// Runs `bytes` through the check.
  /// - Returns: a description of the first broken promise, or nil when all held.
  public func problem(with bytes: [UInt8]) -> String? {
    let animator: DataAnimator
    switch DataAnimator.read(bytes, name: "fuzz", file: "fuzz.json") {
    case .failure(let failure):
      guard !failure.issues.isEmpty else { return "a file was refused without a problem" }
      for issue in failure.issues {
        guard issue.line >= 1, issue.column >= 1, !issue.message.isEmpty,
          issue.pointer.isEmpty || issue.pointer.hasPrefix("/")
        else { return "a malformed problem: \(issue)" }
      }
      return nil
    case .success(let read):
      animator = read
    }
    for context in Self.contexts {
      var members = context.objectValue ?? [:]
      guard let name = members["operation"]?.stringValue,
        let operation = TransitionOperation(rawValue: name),
        animator.operations.contains(operation)
      else { continue }
      members["duration"] = 1
      let contextBytes = Array(JSONValue.object(members).serialized.utf8)
      switch animator.outcome(forContextJSON: contextBytes) {
      case .declined: continue
      case .failed(let message):
        if message.isEmpty { return "a data animator failed without a message" }
      case .timeline(let timelineBytes):
        let timeline: Timeline
        do {
          timeline = try Timeline(jsonBytes: timelineBytes)
        } catch {
          return "a data animator's timeline does not decode: \(error.message)"
        }
        // The binary form the plugin host sends reads back as the JSON text does.
        guard
          case .timeline(let binary) = animator.outcome(
            forContextJSON: contextBytes, encoding: .binary),
          (try? Timeline(binary: binary)) == timeline
        else { return "a data animator's binary timeline differs from its JSON text" }
        let evaluator = TimelineEvaluator(timeline)
        for progress in RequestCheck.progressValues {
          _ = evaluator.frame(progress: progress)
        }
      }
    }
    return nil
  }
}
