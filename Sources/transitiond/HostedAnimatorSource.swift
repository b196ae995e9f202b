import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit
import TransitionServer

/// The core's ``AnimatorSource`` when plugins run in the plugin host process: the animators
/// the host last reported (kept while it restarts), calls answered through the
/// ``PluginHostSupervisor``, and the built-in fallback listed when no plugin provides its name.
final class HostedAnimatorSource: AnimatorSource {
  let supervisor: PluginHostSupervisor
  let builtin: BuiltinFallback

  init(supervisor: PluginHostSupervisor, builtin: BuiltinFallback) {
    self.supervisor = supervisor
    self.builtin = builtin
  }

  var animators: [RegisteredAnimator] {
    let hosted = supervisor.catalog
    return hosted.contains { $0.name == builtin.info.name } ? hosted : hosted + [builtin.info]
  }

  func animator(named name: String) -> RegisteredAnimator? {
    supervisor.animator(named: name) ?? (name == builtin.info.name ? builtin.info : nil)
  }

  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    if supervisor.animator(named: name) == nil, name == builtin.info.name {
      completion(builtin.makeTimeline(contextJSON: contextJSON))
      return
    }
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
    return [
      "pluginHost": .object([
        "state": .string(supervisor.phase.rawValue),
        "pid": supervisor.hostPID.map { .number(Double($0)) } ?? .null,
        "starts": .number(Double(supervisor.starts)),
        "user": supervisor.settings.user.map { .string($0.name) } ?? .null,
      ]),
      "quarantined": .array(quarantined),
    ]
  }
}

@available(*, unavailable) extension HostedAnimatorSource: Sendable {}
