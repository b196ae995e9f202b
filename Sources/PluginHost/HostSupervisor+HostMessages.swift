import PluginLoader
import PluginValues
import TransitionKit

/// The host's messages, each checked against what was asked.
extension HostSupervisor {
  mutating func received(_ bytes: [UInt8]) {
    guard host != nil else { return }
    host?.reader.append(bytes)
    do {
      while host != nil, let message = try host?.reader.next() {
        receive(message)
      }
    } catch .tooLarge(let kind, let length, let limit) {
      if kind == HostMessage.Kind.answer.rawValue {
        fault(
          .oversized,
          "animator \(callAtHost?.animator ?? "?") returned a timeline of \(length) bytes, "
            + "more than the limit of \(limit) (limits.maxTimelineBytes)")
      } else {
        fault(.protocolViolation, "the plugin host sent a message of \(length) bytes")
      }
    } catch {
      fault(.protocolViolation, "the plugin host broke the protocol: \(error)")
    }
  }

  mutating func receive(_ message: HostMessage) {
    switch message.kind {
    case .loading where scanAtHost:
      guard message.payload.count == 4, let files = host?.scanFiles,
        case let index = Int(HostMessage.uint32(message.payload)), index < files.count,
        files[index].kind == .library, files[index].descriptor >= 0
      else {
        fault(.protocolViolation, "the plugin host announced a library it was not given")
        return
      }
      loadingLibrary = files[index].path
      stepDeadline = environment.now + settings.loadTimeout
    case .scanned where scanAtHost:
      var report: ScanReport
      do {
        report = try ScanReport(payload: message.payload)
      } catch {
        fault(.protocolViolation, "the plugin host sent an unreadable report: \(error)")
        return
      }
      let given = host?.givenPaths ?? []
      if let stranger = report.animators.first(where: { !given.contains($0.libraryPath) }) {
        fault(
          .protocolViolation,
          "the plugin host reported animator \(stranger.name) from a file it was not given")
        return
      }
      report.diagnostics = (host?.scanDiagnostics ?? []) + report.diagnostics
      scanAtHost = false
      loadingLibrary = nil
      stepDeadline = nil
      policy.hostWorked()
      phase = .ready
      updateCatalog(report.animators)
      hasScanned = true
      effects.append(.scanned(report))
      let answers = rescansAtHost
      rescansAtHost = []
      for answer in answers { effects.append(.answerRescan(answer, .success(report))) }
      dispatch()
    case .answer where callAtHost?.id == message.call:
      guard let call = callAtHost, let result = Self.result(of: message, animator: call.animator)
      else {
        fault(.protocolViolation, "the plugin host sent an answer of unknown status")
        return
      }
      callAtHost = nil
      policy.hostWorked()
      effects.append(.answer(call.ticket, result))
      dispatch()
    default:
      fault(
        .protocolViolation,
        "the plugin host sent an unexpected \(message.kind) message (call \(message.call))")
    }
  }

  /// The result an answer message carries; nil for an unknown status.
  public static func result(of message: HostMessage, animator: String) -> PluginTimelineResult? {
    switch HostMessage.Status(rawValue: message.status) {
    case .timeline?, .binaryTimeline?:
      guard !message.payload.isEmpty else {
        return .failed("animator \(animator) reported success but returned no timeline")
      }
      return message.status == HostMessage.Status.timeline.rawValue
        ? .timeline(message.payload) : .binaryTimeline(message.payload)
    case .declined?: return .declined
    case .failed?:
      let message = String(decoding: message.payload.prefix(4096), as: UTF8.self)
      return .failed(String(message.prefix(1000)))
    case nil: return nil
    }
  }

  mutating func updateCatalog(_ reported: [RegisteredAnimator]) {
    var animators = reported
    var names = Set(reported.map(\.name))
    for old in catalog where policy.quarantined[old.libraryPath] != nil {
      if names.insert(old.name).inserted { animators.append(old) }
    }
    catalog = animators
    catalogIndex = Dictionary(
      animators.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
  }
}
