import PluginLoader
import PluginValues
import TransitionKit

/// A host that failed: killed, its calls answered, its library blamed, a restart planned.
extension HostSupervisor {
  /// Kills the host, answers every call, blames the library at fault and schedules a restart.
  /// - Parameter blameless: the fault is the machine's (a call starved of CPU), not the
  ///   plugin's: no strike.
  mutating func fault(
    _ kind: PluginCallFault, _ message: String, blameless: Bool = false
  ) {
    guard let host else { return }
    let blamed: String?
    let whileLoading: Bool
    if blameless {
      blamed = nil
      whileLoading = false
    } else if scanAtHost {
      blamed = loadingLibrary
      whileLoading = loadingLibrary != nil
    } else {
      blamed = callAtHost?.library
      whileLoading = false
    }
    let failedCall = callAtHost
    let waiting = takeCalls()
    let wasScanning = scanAtHost
    scanAtHost = false
    loadingLibrary = nil
    stepDeadline = nil
    discardHost()
    let reason =
      whileLoading ? "crashed or hung the plugin host while loading (\(message))" : message
    let (wait, quarantinedNow) = policy.hostFailed(
      blaming: blamed, whileLoading: whileLoading, reason: reason)
    effects.append(
      .log(
        .warn,
        "plugin host (pid \(host.pid)) killed: \(message); restarting in "
          + "\(Int(wait * 1000)) ms"))
    if quarantinedNow, let blamed {
      let strikes = policy.strikes[blamed] ?? 0
      effects.append(
        .log(
          .error,
          "plugin \(blamed) quarantined after \(strikes) fault\(strikes == 1 ? "" : "s"): "
            + "\(reason); its animators fall back to \(PluginRegistry.fallbackAnimatorName) "
            + "until the next reload"))
    }
    phase = .restarting
    if wasScanning && !hasScanned && blamed == nil {
      effects.append(.failedBeforeFirstScan(message))
    }
    if wasScanning && blamed == nil {
      answerRescans(.failure(RescanFailure(message: message)))
    } else if wasScanning {
      // The retry skips the library now quarantined: it answers these.
      rescansWanted = rescansAtHost + rescansWanted
      rescansAtHost = []
    }
    scanWanted = true
    scheduleRestart(after: wait)
    if let failedCall { effects.append(.answer(failedCall.ticket, .faulted(kind, message))) }
    for call in waiting where call.id != failedCall?.id {
      effects.append(
        .answer(call.ticket, .faulted(.unavailable, "the plugin host went down (\(message))")))
    }
  }

  /// Every call waiting or at the host, removed from both.
  mutating func takeCalls() -> [Call] {
    var calls = queue
    if let callAtHost { calls.insert(callAtHost, at: 0) }
    queue = []
    callAtHost = nil
    return calls
  }

  /// Forgets the host and has the shell kill it.
  mutating func discardHost() {
    host = nil
    effects.append(.killHost)
  }

  /// How the host ended, naming the signal and the animator whose call it took down: "the
  /// plugin host was killed by SIGSEGV (Segmentation fault) during a call to animator X".
  func endMessage(status: Int32?) -> String {
    var message =
      "the plugin host " + (status.map { HostProcess.describe(waitStatus: $0) } ?? "exited")
    if let call = callAtHost { message += " during a call to animator \(call.animator)" }
    return message
  }
}
