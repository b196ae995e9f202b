import Foundation
import TransitionClient
import TransitionJSON

/// One transition the soak can begin: an animator, and a context of an operation it serves.
struct SoakTransition: Sendable {
  var animator: String
  var operation: String
  var context: [String: JSONValue]
}

/// Every animator the daemon lists, with each operation it serves, paired with a context from
/// the example scenes (config/scenes): the animator's own scene of that operation when there
/// is one, otherwise default-slide's (the example plugins have no scenes of their own).
enum SoakScenes {
  /// - Throws: when the scenes directory holds no scene of an operation some animator serves.
  static func transitions(animators: [AnimatorInfo], scenesDirectory: String) throws
    -> [SoakTransition]
  {
    var scenes: [(animator: String, operation: String, context: [String: JSONValue])] = []
    let names = try FileManager.default.contentsOfDirectory(atPath: scenesDirectory).sorted()
    for name in names where name.hasSuffix(".json") {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: scenesDirectory + "/" + name))
      guard case .object(var members) = try JSONValue(parsing: Array(bytes)),
        let animator = members["animator"]?.stringValue,
        let operation = members["operation"]?.stringValue
      else { continue }
      members["animator"] = nil
      members["description"] = nil
      scenes.append((animator, operation, members))
    }
    var transitions: [SoakTransition] = []
    for animator in animators where !animator.quarantined && animator.error == nil {
      for operation in animator.operations {
        let own = scenes.first { $0.animator == animator.name && $0.operation == operation }
        let fallback = scenes.first { $0.animator == "default-slide" && $0.operation == operation }
        guard let scene = own ?? fallback else {
          throw SoakFailure(
            "no scene in \(scenesDirectory) of \(operation), which \(animator.name) serves")
        }
        transitions.append(
          SoakTransition(animator: animator.name, operation: operation, context: scene.context))
      }
    }
    return transitions
  }
}

/// A soak that cannot run (not one that failed its judgement): one line, exit 2.
struct SoakFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
