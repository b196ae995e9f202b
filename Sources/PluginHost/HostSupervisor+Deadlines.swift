import PluginLoader
import PluginValues
import TransitionKit

/// What the clock ends: a call, a load step, a restart's wait.
extension HostSupervisor {
  mutating func timePassed() {
    let now = environment.now
    if let restart = restartAt, now >= restart {
      restartAt = nil
      startHost()
    }
    if scanAtHost, host != nil, let step = stepDeadline, now >= step {
      let milliseconds = Int(settings.loadTimeout * 1000)
      let what =
        loadingLibrary.map { "opening \($0) took more than \(milliseconds) ms" }
        ?? "the plugin host did not start within \(milliseconds) ms"
      fault(.timeout, what + " (limits.pluginLoadTimeoutMs)")
    }
    let milliseconds = Int(settings.callTimeout * 1000)
    if let call = callAtHost, now >= call.deadline, let host {
      var starved = false
      if let sent = call.sent, let start = sent.cpu,
        let end = environment.cpuSample(pid: host.pid)
      {
        starved = end.wasStarved(since: start, elapsed: now - sent.time)
      }
      fault(
        .timeout,
        "animator \(call.animator) did not answer within \(milliseconds) ms "
          + "(limits.pluginCallTimeoutMs)"
          + (starved ? ", the plugin host waiting for a CPU (the machine is overloaded)" : ""),
        blameless: starved)
    }
    let expired = queue.filter { now >= $0.deadline }
    queue.removeAll { now >= $0.deadline }
    for call in expired {
      effects.append(
        .answer(
          call.ticket,
          .faulted(
            .timeout,
            "animator \(call.animator) was not called within \(milliseconds) ms: the plugin "
              + "host was busy (limits.pluginCallTimeoutMs)")))
    }
  }
}
