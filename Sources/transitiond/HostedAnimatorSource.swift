import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit
import TransitionServer

/// The core's ``AnimatorSource`` when plugins run in plugin host processes: the animators the
/// hosts last reported (each host's kept while it restarts) and calls answered by the host that
/// serves the animator, through the ``PluginHostPool``. (The core lists and serves its built-in
/// fallback itself when no host has one of its name.)
final class HostedAnimatorSource: AnimatorSource {
  let pool: PluginHostPool
  /// Why nothing but the built-in fallback serves (the last scan loaded no animator), or nil:
  /// the `animators` reply's `missing`.
  var missing: String?

  init(pool: PluginHostPool) {
    self.pool = pool
  }

  var animators: [RegisteredAnimator] { pool.catalog }

  func animator(named name: String) -> RegisteredAnimator? {
    pool.animator(named: name)
  }

  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    pool.makeTimeline(animator: name, contextJSON: contextJSON, completion: completion)
  }

  func isQuarantined(_ name: String) -> Bool {
    guard let animator = pool.animator(named: name), let member = pool.member(serving: name)
    else { return false }
    return member.supervisor.quarantineReason(ofLibrary: animator.libraryPath) != nil
  }

  var listingMembers: [String: JSONValue] {
    let quarantined = pool.quarantined
    let quarantinedList: [JSONValue] = quarantined.keys.sorted().map { path in
      .object(["path": .string(path), "reason": .string(quarantined[path] ?? "")])
    }
    let hosts: [JSONValue] = pool.members.map { member in
      let supervisor = member.supervisor
      return .object([
        "kind": .string(member.library == nil ? "data" : "library"),
        "path": member.library.map(JSONValue.string) ?? .null,
        "state": .string(supervisor.phase.rawValue),
        "pid": supervisor.hostPID.map { .number(Double($0)) } ?? .null,
        "starts": .number(Double(supervisor.starts)),
        "user": supervisor.settings.user.map { .string($0.name) } ?? .null,
      ])
    }
    var members: [String: JSONValue] = [
      "pluginHosts": .array(hosts), "quarantined": .array(quarantinedList),
    ]
    if let missing { members["missing"] = .string(missing) }
    return members
  }
}

@available(*, unavailable) extension HostedAnimatorSource: Sendable {}
