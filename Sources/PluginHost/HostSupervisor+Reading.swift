import PluginLoader
import PluginValues
import TransitionKit

/// What the shell and the daemon read of the supervisor: the host, the catalogue, the next deadline.
extension HostSupervisor {
  /// The pid of the running host, if any.
  public var hostPID: Int32? { host?.pid }

  /// The catalogued animator called `name`.
  public func animator(named name: String) -> RegisteredAnimator? {
    catalogIndex[name].map { catalog[$0] }
  }

  /// Why the library is quarantined, or nil.
  public func quarantineReason(ofLibrary path: String) -> String? { policy.quarantined[path] }

  /// When the shell must send ``Event/timePassed``: the earliest deadline of a call, of a load
  /// step, or of a restart; nil when nothing waits on the clock.
  public var nextDeadline: Double? {
    var deadlines = queue.map(\.deadline)
    if let call = callAtHost { deadlines.append(call.deadline) }
    if scanAtHost, let stepDeadline { deadlines.append(stepDeadline) }
    if let restartAt { deadlines.append(restartAt) }
    return deadlines.min()
  }
}
