import Foundation
import TransitionClient
import TransitionJSON
import TransitionKit

/// A scene file: a transition context (docs/protocol.md, `begin`) that may also name the `animator`,
/// `duration` and `interactive` to begin it with.
///
/// Loading checks the whole scene before anything is sent: an unknown key is refused, and the
/// context is validated as the daemon validates it, with every error naming the field as the
/// file writes it (`from.layers[1].frame`). Hints for the animator, which a context may carry
/// at its top level, go in the scene's `hints` object. The daemon's own limits
/// (`maxLayersPerContext`) are the daemon's to check.
struct SceneFile {
  /// The file's path as given.
  let path: String
  /// The context's operation (`push`, `pop`, `present`, `dismiss`).
  let operation: String
  /// The context to send, without the `animator`, `duration` and `interactive` keys.
  let context: [String: JSONValue]
  /// The animator the scene asks for.
  let animator: String?
  /// The duration in seconds the scene asks for.
  let duration: Double?
  /// Whether the scene asks to be begun interactive.
  let interactive: Bool?

  /// The keys a scene may carry besides the context's own (`description` is a note for
  /// readers and is not sent).
  static let sceneOnlyKeys = ["animator", "duration", "interactive", "description", "hints"]

  /// The context's own keys, as a scene writes them.
  static let contextKeys = ["operation", "container", "from", "to", "selected", "match"]

  /// Reads and checks the scene at `path`.
  ///
  /// - Throws: ``ExitCode/noInput`` when the file cannot be read, ``ExitCode/dataError`` with
  ///   one line naming the file and the problem when it is not a valid scene.
  init(path: String) throws(CommandFailure) {
    self.path = path
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot read it" : "no such file"
      throw CommandFailure(ExitCode.noInput, "\(path): \(reason)")
    }
    let decoded: JSONValue
    do {
      decoded = try JSONValue(parsing: data)
    } catch {
      throw CommandFailure(
        ExitCode.dataError, "\(path): invalid JSON: \(Self.describe(error, in: data))")
    }
    guard case .object(var fields) = decoded else {
      throw CommandFailure(ExitCode.dataError, "\(path): a scene must be a JSON object")
    }
    let object = JSONObject(fields, context: "scene")
    func invalid(_ message: String) -> CommandFailure {
      CommandFailure(ExitCode.dataError, "\(path): \(message)")
    }
    let known = Set(Self.contextKeys + Self.sceneOnlyKeys)
    if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
      throw invalid(
        "\"\(unknown)\" is not a scene key (a scene takes "
          + (Self.contextKeys + Self.sceneOnlyKeys).joined(separator: ", ")
          + "; hints for the animator go in \"hints\")")
    }

    guard let operation = object["operation"]?.stringValue, !operation.isEmpty else {
      throw invalid("\"operation\" must be a string: \(TransitionOperation.listing)")
    }
    self.operation = operation
    guard let container = object["container"]?.arrayValue, container.count == 2,
      container.allSatisfy({ ($0.numberValue ?? 0) > 0 })
    else {
      throw invalid("\"container\" must be [width, height] with positive numbers")
    }
    for screen in ["from", "to"] {
      guard let screenObject = object[screen]?.objectValue else {
        throw invalid("\"\(screen)\" must be an object with \"layers\"")
      }
      guard screenObject["layers"]?.arrayValue != nil else {
        throw invalid("\"\(screen).layers\" must be an array of layers")
      }
    }

    if let value = object["animator"] {
      guard let name = value.stringValue, !name.isEmpty else {
        throw invalid("\"animator\" must be an animator's name")
      }
      animator = name
    } else {
      animator = nil
    }
    if let value = object["duration"] {
      guard let seconds = value.numberValue, seconds > 0, seconds.isFinite else {
        throw invalid("\"duration\" must be a positive number of seconds")
      }
      duration = seconds
    } else {
      duration = nil
    }
    if let value = object["interactive"] {
      guard let flag = value.boolValue else {
        throw invalid("\"interactive\" must be true or false")
      }
      interactive = flag
    } else {
      interactive = nil
    }
    var hints: [String: JSONValue] = [:]
    if let value = object["hints"] {
      guard let members = value.objectValue else {
        throw invalid("\"hints\" must be an object: members the animator reads")
      }
      if let clash = members.keys.sorted().first(where: known.contains) {
        throw invalid("hints.\(clash) is a scene key, not a hint: move it to the top level")
      }
      hints = members
    }
    for key in Self.sceneOnlyKeys { fields.removeValue(forKey: key) }
    do {
      // Paths from the root as the file writes them: `from.layers[1].frame`, no `context.`.
      _ = try TransitionContext(json: .object(fields), path: "")
    } catch {
      // The code the daemon would answer with, so that both read the same.
      throw invalid("invalid_context: \(error.message)")
    }
    fields.merge(hints) { own, _ in own }
    context = fields
  }

  /// The parser's complaint, with the byte offset it names turned into line and column.
  private static func describe(_ error: JSONSyntaxError, in data: Data) -> String {
    var line = 1
    var column = 1
    for byte in data.prefix(error.offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return "\(error.reason) at line \(line), column \(column)"
  }
}
