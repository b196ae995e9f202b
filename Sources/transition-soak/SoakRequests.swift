import TransitionClient
import TransitionJSON
import TransitionWire

extension DaemonClient {
  /// Sends `op` with `fields` and waits up to `seconds` for its reply, counting it in
  /// `report`: a refusal (`ok: false`) is a reply and is returned; no reply within the bound,
  /// or a connection closed before it, is counted as unanswered and gives nil.
  func ask(
    _ op: Op, _ fields: [String: JSONValue] = [:], within seconds: Double = 10,
    into report: inout WorkerReport
  ) -> Reply? {
    report.requests += 1
    do {
      let id = try send(fields.merging(["op": .string(op.rawValue)]) { _, op in op })
      let reply = try reply(to: id, timeout: .milliseconds(Int(seconds * 1000)))
      if !reply.ok { report.refused += 1 }
      return reply
    } catch {
      report.unanswered += 1
      report.note("\(op.rawValue) got no reply: \(error)")
      return nil
    }
  }

  /// Reads events until `session` completes, counting its frames, for at most `seconds`.
  ///
  /// - Returns: false when the session did not complete in time or the connection failed
  ///   (noted in `report`).
  func readUntilComplete(
    of session: String, within seconds: Double, into report: inout WorkerReport
  ) -> Bool {
    let deadline = Monotonic.now + seconds
    while true {
      let left = deadline - Monotonic.now
      guard left > 0 else {
        report.incomplete += 1
        report.note("session \(session) did not complete within \(seconds) s")
        return false
      }
      do {
        switch try nextEvent(timeout: .milliseconds(Int(left * 1000) + 1)) {
        case .frame: report.frames += 1
        case .complete(let complete) where complete.session == session: return true
        case .stopping:
          report.note("the daemon said stopping during the soak")
          return false
        default: continue
        }
      } catch {
        if error.code == .timeout { continue }
        report.incomplete += 1
        report.note("reading session \(session): \(error)")
        return false
      }
    }
  }

  /// Reads up to `count` frames of the connection (fewer when `session` completes first), for
  /// at most `seconds`.
  ///
  /// - Returns: true when `session` completed meanwhile.
  func readFrames(
    _ count: Int, of session: String, within seconds: Double, into report: inout WorkerReport
  ) -> Bool {
    let deadline = Monotonic.now + seconds
    var read = 0
    while read < count, case let left = deadline - Monotonic.now, left > 0 {
      guard let event = try? nextEvent(timeout: .milliseconds(Int(left * 1000) + 1)) else {
        return false
      }
      switch event {
      case .frame:
        report.frames += 1
        read += 1
      case .complete(let complete) where complete.session == session: return true
      default: continue
      }
    }
    return false
  }
}
