import Foundation
import TransitionClient

/// A scene file: a transition context (as in docs/protocol.md, "begin") that may also name
/// the `animator`, `duration` and `interactive` to begin it with.
///
/// Loading checks the JSON and the context's outline (`operation`, `container`, `from`, `to`
/// with their `layers`); the daemon checks the rest and names any bad field.
struct SceneFile {
  /// The file's path as given.
  let path: String
  /// The context's operation (`push`, `pop`, `present`, `dismiss`).
  let operation: String
  /// The context to send, without the `animator`, `duration` and `interactive` keys.
  let context: [String: Any]
  /// The animator the scene asks for.
  let animator: String?
  /// The duration in seconds the scene asks for.
  let duration: Double?
  /// Whether the scene asks to be begun interactive.
  let interactive: Bool?

  /// The keys a scene may carry besides the context's own (`description` is a note for
  /// readers and is not sent).
  static let sceneOnlyKeys = ["animator", "duration", "interactive", "description"]

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
    let decoded: Any
    do {
      decoded = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw CommandFailure(
        ExitCode.dataError, "\(path): invalid JSON: \(Self.describe(error as NSError, in: data))")
    }
    guard var fields = decoded as? [String: Any] else {
      throw CommandFailure(ExitCode.dataError, "\(path): a scene must be a JSON object")
    }
    let object = JSONObject(fields, context: "scene")
    func invalid(_ message: String) -> CommandFailure {
      CommandFailure(ExitCode.dataError, "\(path): \(message)")
    }

    guard let operation = object["operation"] as? String, !operation.isEmpty else {
      throw invalid("\"operation\" must be a string: push, pop, present or dismiss")
    }
    self.operation = operation
    guard let container = object["container"] as? [Any], container.count == 2,
      container.allSatisfy({ (JSONObject.number($0) ?? 0) > 0 })
    else {
      throw invalid("\"container\" must be [width, height] with positive numbers")
    }
    for screen in ["from", "to"] {
      guard let screenObject = object[screen] as? [String: Any] else {
        throw invalid("\"\(screen)\" must be an object with \"layers\"")
      }
      guard screenObject["layers"] is [Any] else {
        throw invalid("\"\(screen).layers\" must be an array of layers")
      }
    }

    if let value = object["animator"] {
      guard let name = value as? String, !name.isEmpty else {
        throw invalid("\"animator\" must be an animator's name")
      }
      animator = name
    } else {
      animator = nil
    }
    if let value = object["duration"] {
      guard let seconds = JSONObject.number(value), seconds > 0, seconds.isFinite else {
        throw invalid("\"duration\" must be a positive number of seconds")
      }
      duration = seconds
    } else {
      duration = nil
    }
    if let value = object["interactive"] {
      guard let flag = JSONObject.boolean(value) else {
        throw invalid("\"interactive\" must be true or false")
      }
      interactive = flag
    } else {
      interactive = nil
    }
    for key in Self.sceneOnlyKeys { fields.removeValue(forKey: key) }
    context = fields
  }

  /// The parser's complaint, with the character offset it names turned into line and column.
  private static func describe(_ error: NSError, in data: Data) -> String {
    let detail = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    guard let range = detail.range(of: "character "),
      let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
    else {
      return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }
    var line = 1
    var column = 1
    for byte in data.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    let problem = detail[..<range.lowerBound].replacingOccurrences(of: " around ", with: "")
    return
      "\(problem.isEmpty ? "unexpected input" : problem.lowercased()) at line \(line), column \(column)"
  }
}
