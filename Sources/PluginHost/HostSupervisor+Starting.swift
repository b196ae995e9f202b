import PluginLoader
import PluginValues
import TransitionKit

/// Starting a host, and its first scan.
extension HostSupervisor {
  mutating func startHost() {
    guard !isStopped else { return }
    starts += 1
    effects.append(.startHost)
  }

  mutating func hostStarted(pid: Int32) {
    guard !isStopped else {
      effects.append(.killHost)
      return
    }
    host = Host(
      pid: pid,
      reader: HostMessageReader(
        payloadLimits: HostMessageReader.fromHost(maxTimelineBytes: settings.maxTimelineBytes)))
    phase = .loading
    scanWanted = true
    dispatch()
  }

  mutating func failedToStart(reason: String) {
    let wait = policy.hostFailed(blaming: nil, whileLoading: false, reason: reason).restartAfter
    phase = .restarting
    if !hasScanned { effects.append(.failedBeforeFirstScan(reason)) }
    answerRescans(.failure(RescanFailure(message: "the plugin host could not start: \(reason)")))
    scheduleRestart(after: wait)
  }

  mutating func scheduleRestart(after seconds: Double) {
    guard !isStopped else { return }
    restartAt = environment.now + seconds
  }
}
