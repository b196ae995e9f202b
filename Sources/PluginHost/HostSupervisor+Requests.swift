import PluginLoader
import PluginValues
import TransitionKit

/// Scans and timeline calls: queued, sent to the host one at a time, answered.
extension HostSupervisor {
  mutating func makeTimeline(_ ticket: Ticket, animator name: String, contextJSON: [UInt8]) {
    guard let animator = animator(named: name) else {
      effects.append(.answer(ticket, .failed("no animator named \(name) is loaded")))
      return
    }
    if let reason = policy.quarantined[animator.libraryPath] {
      effects.append(
        .answer(
          ticket,
          .faulted(
            .quarantined,
            "animator \(name) is quarantined until the next reload: its plugin "
              + "\(animator.libraryPath) brought the plugin host down (\(reason))")))
      return
    }
    guard phase == .ready || phase == .loading else {
      let state = phase == .stopped ? "stopped" : "restarting"
      effects.append(.answer(ticket, .faulted(.unavailable, "the plugin host is \(state)")))
      return
    }
    lastCallID = lastCallID &+ 1
    queue.append(
      Call(
        id: lastCallID, ticket: ticket, animator: name, library: animator.libraryPath,
        contextJSON: contextJSON, deadline: environment.now + settings.callTimeout))
    dispatch()
  }

  mutating func rescan(with settings: Settings, answer: Ticket?) {
    if let answer { rescansWanted.append(answer) }
    self.settings = settings
    host?.reader.payloadLimits[.answer] = settings.maxTimelineBytes
    policy.initialBackoff = settings.initialBackoff
    policy.maximumBackoff = settings.maximumBackoff
    policy.quarantineStrikes = settings.quarantineStrikes
    policy.liftQuarantine()
    scanWanted = true
    if phase == .ready { dispatch() }
  }

  mutating func stop() {
    isStopped = true
    phase = .stopped
    restartAt = nil
    stepDeadline = nil
    scanAtHost = false
    if host != nil { discardHost() }
    for call in takeCalls() {
      effects.append(.answer(call.ticket, .faulted(.unavailable, "the daemon is stopping")))
    }
    answerRescans(.failure(RescanFailure(message: "the daemon is stopping")))
  }

  /// Answers every rescan waiting, sent or not.
  mutating func answerRescans(_ result: Result<ScanReport, RescanFailure>) {
    let answers = rescansAtHost + rescansWanted
    rescansAtHost = []
    rescansWanted = []
    for answer in answers { effects.append(.answerRescan(answer, result)) }
  }

  /// Sends the next request when the host is free: a wanted scan first, then the oldest call.
  mutating func dispatch() {
    guard var host, !scanAtHost, callAtHost == nil else { return }
    if scanWanted {
      scanWanted = false
      scanAtHost = true
      phase = .loading
      loadingLibrary = nil
      rescansAtHost += rescansWanted
      rescansWanted = []
      let scan = environment.scanFiles(
        settings.registry, skipping: Set(policy.quarantined.keys))
      host.scanFiles = scan.files
      host.scanDiagnostics = scan.diagnostics
      host.givenPaths.formUnion(scan.files.map(\.path))
      self.host = host
      stepDeadline = environment.now + settings.loadTimeout
      for descriptor in scan.descriptors {
        effects.append(.send(HostMessage(.file).encoded, passing: descriptor))
      }
      effects.append(
        .send(
          HostMessage(.scan, payload: ScanRequest(files: scan.files).payload).encoded,
          passing: nil))
      return
    }
    guard !queue.isEmpty else { return }
    var call = queue.removeFirst()
    call.sent = (environment.now, environment.cpuSample(pid: host.pid))
    callAtHost = call
    effects.append(
      .send(
        HostMessage(
          .timeline, call: call.id,
          payload: TimelineCall(animator: call.animator, contextJSON: call.contextJSON).payload
        ).encoded, passing: nil))
  }
}
