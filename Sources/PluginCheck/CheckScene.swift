import Foundation
import TransitionJSON
import TransitionKit

/// A scene to check animators on: a transition context read from a scene file
/// (config/scenes/README.md), without the keys that only `transitionctl play` reads.
public struct CheckScene: Sendable {
  /// The file's name, for the report.
  public let name: String
  public let context: TransitionContext

  /// The scene members that are not part of the context (`transitionctl play` reads them).
  /// `hints` holds the scene's hints for the animator, which join the context's top level.
  static let sceneOnlyKeys = ["animator", "duration", "interactive", "description", "hints"]

  public init(name: String, context: TransitionContext) {
    self.name = name
    self.context = context
  }

  /// Reads and validates the scene file at `path`.
  /// - Throws: `PluginCheckError` naming the file and the problem.
  public init(path: String) throws(PluginCheckError) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw PluginCheckError(.noInput, "\(path): cannot read the scene")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: Array(data))
    } catch {
      throw PluginCheckError(.dataError, "\(path): not a valid scene: \(error.message)")
    }
    do {
      var context = try TransitionContext(json: json, path: "")
      for key in Self.sceneOnlyKeys { context.hints[key] = nil }
      for (key, value) in json.objectValue?["hints"]?.objectValue ?? [:]
      where context.hints[key] == nil {
        context.hints[key] = value
      }
      self.init(name: (path as NSString).lastPathComponent, context: context)
    } catch {
      throw PluginCheckError(.dataError, "\(path): not a valid scene: \(error.message)")
    }
  }

  /// The context as the daemon sends it to a plugin (UTF-8 JSON, no `duration`).
  var contextJSON: [UInt8] { Array(context.json.serialized.utf8) }

  /// The example scenes: the `*.json` files of the first directory of `directories` that has
  /// any, in name order.
  /// - Throws: `PluginCheckError` when none has scenes or a scene is invalid.
  public static func examples(in directories: [String]) throws(PluginCheckError) -> [CheckScene] {
    for directory in directories {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        continue
      }
      let files = names.filter { $0.hasSuffix(".json") }.sorted()
      if files.isEmpty { continue }
      var scenes: [CheckScene] = []
      for file in files {
        scenes.append(try CheckScene(path: (directory as NSString).appendingPathComponent(file)))
      }
      return scenes
    }
    throw PluginCheckError(
      .noInput,
      "no example scenes found (looked in \(directories.joined(separator: ", "))); give --scene FILE"
    )
  }
}
