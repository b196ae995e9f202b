import PluginHost
import PluginValues
import TransitionKit
import TransitionServer

/// The fuzzer's check of the plugin host's messages as the daemon reads them (docs/security.md,
/// "Fuzzing"): arbitrary bytes as the stream a hostile host process writes, read with a
/// ``PluginHost/HostMessageReader`` under the daemon's limits, and every message decoded as
/// the daemon decodes it: a scan report by ``PluginHost/ScanReport/init(payload:)``, a
/// timeline answer by the timeline codec, then evaluated and encoded.
///
/// Promised: the stream cut into pieces of 1 to 7 bytes gives the messages and the failure
/// that it gives whole; the messages read are the input's first bytes exactly (re-encoded);
/// none is of a kind the daemon does not take from a host or over its kind's limit; a report
/// that decodes holds valid, unique names and at most its limits, and survives its own
/// encoding; a timeline that decodes evaluates to finite numbers and encodes to JSON. The same
/// bytes, read by the supervisor's state machine at each ``PluginHost/HostSupervisor/Stage``
/// (``PluginHost/HostSupervisor/effects(ofHostBytes:at:)``), answer no call that was not asked
/// and the asked one at most once, kill the host whenever the stream cannot be read, and log
/// one line at a time.
public struct HostMessageCheck: Sendable {
  /// The daemon's limits, with the default `limits.maxTimelineBytes`.
  static let limits = HostMessageReader.fromHost(maxTimelineBytes: ServerLimits().maxTimelineBytes)

  public init() {}

  /// Runs `bytes` through the check.
  /// - Returns: a description of the first broken promise, or nil when all held.
  public func problem(with bytes: [UInt8]) -> String? {
    let whole = Self.read(bytes, piece: max(1, bytes.count))
    let pieces = Self.read(bytes, piece: 1 + Int(bytes.first ?? 0) % 7)
    guard whole.messages == pieces.messages, whole.failure == pieces.failure else {
      return "read whole, the stream gives \(whole.messages.count) messages and "
        + "\(String(describing: whole.failure)); in pieces, \(pieces.messages.count) and "
        + String(describing: pieces.failure)
    }
    var offset = 0
    for message in whole.messages {
      let encoded = message.encoded
      guard bytes.count >= offset + encoded.count,
        bytes[offset..<offset + encoded.count].elementsEqual(encoded)
      else { return "message \(message.kind) does not re-encode to the bytes it was read from" }
      offset += encoded.count
      guard let limit = Self.limits[message.kind] else {
        return "a \(message.kind) message was taken from the host"
      }
      guard message.payload.count <= limit else {
        return
          "a \(message.kind) message of \(message.payload.count) bytes passed the limit \(limit)"
      }
      if let problem = Self.payloadProblem(message) { return problem }
    }
    for stage in HostSupervisor.Stage.allCases {
      if let problem = Self.supervisorProblem(bytes, at: stage, unreadable: whole.failure != nil) {
        return problem
      }
    }
    return nil
  }

  /// A broken promise of the supervisor's state machine fed `bytes` at `stage`.
  static func supervisorProblem(_ bytes: [UInt8], at stage: HostSupervisor.Stage, unreadable: Bool)
    -> String?
  {
    let effects = HostSupervisor.effects(ofHostBytes: bytes, at: stage)
    var answers = 0
    var killed = false
    for effect in effects {
      switch effect {
      case .answer: answers += 1
      case .killHost: killed = true
      case .log(_, let line) where line.contains("\n"):
        return "at \(stage), the supervisor logged more than one line: \(line.prefix(200))"
      default: break
      }
    }
    if answers > (stage == .callAtHost ? 1 : 0) {
      return "at \(stage), the supervisor answered \(answers) calls"
    }
    if unreadable && !killed {
      return "at \(stage), a stream that cannot be read left the host running"
    }
    return nil
  }

  /// The messages read from `bytes` fed `piece` bytes at a time, and the failure that ended
  /// the stream, if one did.
  static func read(_ bytes: [UInt8], piece: Int) -> (
    messages: [HostMessage], failure: HostMessageReader.Failure?
  ) {
    var reader = HostMessageReader(payloadLimits: limits)
    var messages: [HostMessage] = []
    var start = 0
    while start < bytes.count {
      reader.append(bytes[start..<min(bytes.count, start + piece)])
      start += piece
      do {
        while let message = try reader.next() { messages.append(message) }
      } catch {
        return (messages, error)
      }
    }
    return (messages, nil)
  }

  /// Decodes a message's payload as the daemon does.
  static func payloadProblem(_ message: HostMessage) -> String? {
    switch message.kind {
    case .scanned:
      guard let report = try? ScanReport(payload: message.payload) else { return nil }
      guard report.animators.count <= ScanReport.maximumAnimators,
        report.diagnostics.count <= ScanReport.maximumDiagnostics,
        Set(report.animators.map(\.name)).count == report.animators.count,
        report.animators.allSatisfy({ AnimatorName.isValid($0.name) })
      else { return "a scan report with bad names or counts was accepted" }
      guard (try? ScanReport(payload: report.payload)) == report else {
        return "a scan report does not survive its own encoding"
      }
    case .answer:
      guard let result = HostSupervisor.result(of: message, animator: "fuzzed"),
        let timeline = try? result.decodedTimeline()
      else { return nil }
      // Either form of a timeline the daemon accepts survives the binary form.
      guard (try? Timeline(binary: timeline.binaryEncoded)) == timeline else {
        return "a timeline does not survive its binary form"
      }
      return RequestCheck.framesProblem(timeline, animator: "the host's answer")
    case .loading, .scan, .timeline, .file:
      break
    }
    return nil
  }
}
