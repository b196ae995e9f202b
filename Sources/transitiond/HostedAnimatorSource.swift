import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit
import TransitionServer

/// The core's ``AnimatorSource`` when plugins run in the plugin host process: the animators
/// the host last reported (kept while it restarts) and calls answered through the
/// ``PluginHostSupervisor``. (The core lists and serves its built-in fallback itself when the
/// host has none of its name.)
final class HostedAnimatorSource: AnimatorSource {
  let supervisor: PluginHostSupervisor
  /// Why nothing but the built-in fallback serves (the last scan loaded no animator), or nil:
  /// the `animators` reply's `missing`.
  var missing: String?

  init(supervisor: PluginHostSupervisor) {
    self.supervisor = supervisor
  }

  var animators: [RegisteredAnimator] { supervisor.catalog }

  func animator(named name: String) -> RegisteredAnimator? {
    supervisor.animator(named: name)
  }

  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    supervisor.makeTimeline(animator: name, contextJSON: contextJSON, completion: completion)
  }

  func isQuarantined(_ name: String) -> Bool {
    guard let animator = supervisor.animator(named: name) else { return false }
    return supervisor.quarantineReason(ofLibrary: animator.libraryPath) != nil
  }

  var listingMembers: [String: JSONValue] {
    let quarantined: [JSONValue] = supervisor.policy.quarantined.keys.sorted().map { path in
      .object([
        "path": .string(path),
        "reason": .string(supervisor.policy.quarantined[path] ?? ""),
      ])
    }
    var members: [String: JSONValue] = [
      "pluginHost": .object([
        "state": .string(supervisor.phase.rawValue),
        "pid": supervisor.hostPID.map { .number(Double($0)) } ?? .null,
        "starts": .number(Double(supervisor.starts)),
        "user": supervisor.settings.user.map { .string($0.name) } ?? .null,
      ]),
      "quarantined": .array(quarantined),
    ]
    if let missing { members["missing"] = .string(missing) }
    return members
  }
}

@available(*, unavailable) extension HostedAnimatorSource: Sendable {}
