import DataAnimator
import Foundation
import TransitionKit

/// The data animators of the repository's `config/animators`, read as the plugin host reads
/// them.
enum DataAnimators {
  static var directory: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../config/animators").standardized.path
  }

  /// The animator `name`, from `config/animators/<name>.json`.
  static func load(_ name: String) throws -> DataAnimator {
    let path = "\(directory)/\(name).json"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    switch DataAnimator.read(Array(bytes), name: name, file: path) {
    case .success(let animator): return animator
    case .failure(let error): throw PluginTestError(description: error.description)
    }
  }

  /// The timeline `name` makes for `context` at its default duration.
  static func timeline(_ name: String, _ context: TransitionContext) throws -> Timeline {
    let animator = try load(name)
    guard
      let timeline = try animator.timeline(
        for: context, duration: animator.defaultDuration(for: context.operation))
    else { throw PluginTestError(description: "\(name) declined") }
    return timeline
  }
}
