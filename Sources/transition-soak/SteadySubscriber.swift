import Foundation
import SoakAnalysis
import TransitionClient
import TransitionJSON
import TransitionWire

/// A healthy subscriber: one connection that begins a session of each animator in turn (1 s,
/// not interactive), subscribes to it on the wall clock at 60 or 30 fps (one session in three
/// with delta frames) and reads every frame as it comes. Every frame is checked: its `seq`
/// follows the one before (no gap: a reader that keeps up is never coalesced), it arrived
/// within ``SoakLimits/lateFrameSeconds`` of when it was due, `start + t` on the shared
/// monotonic clock, and a delta subscription's frames start with a key frame and each delta
/// applies to the frames before it (``DaemonClient`` rebuilds them).
struct SteadySubscriber: SocketWorker {
  let socketPath: String
  let transitions: [SoakTransition]
  let deadline: Double
  var report = WorkerReport(role: "steady")
  /// Writes the wall-clock time of a late frame, to find it in the daemon's log; used once
  /// before the first session, as its first use loads what it needs (78 ms measured here).
  private let wallClock = ISO8601DateFormatter()

  init(socketPath: String, transitions: [SoakTransition], deadline: Double, seed: UInt64) {
    self.socketPath = socketPath
    self.transitions = transitions
    self.deadline = deadline
    report.seed = seed
    _ = wallClock.string(from: Date())
  }

  mutating func run() -> WorkerReport {
    var next = Int(report.seed % UInt64(max(1, transitions.count)))
    connectUntilDeadline { worker, client in
      while Monotonic.now < worker.deadline {
        let transition = worker.transitions[next % worker.transitions.count]
        next += 1
        let encoding: FrameEncoding = next % 3 == 0 ? .delta : .full
        if !worker.follow(
          transition, fps: next % 2 == 0 ? 60 : 30, encoding: encoding, on: client)
        {
          break
        }
      }
    }
    return report
  }

  /// Begins `transition` and reads its frames, of `encoding`, to its `complete`.
  /// - Returns: false when the connection is no longer usable.
  private mutating func follow(
    _ transition: SoakTransition, fps: Double, encoding: FrameEncoding, on client: DaemonClient
  ) -> Bool {
    guard
      let begun = client.ask(
        .begin,
        [
          "context": .object(transition.context), "animator": .string(transition.animator),
          "duration": 1,
        ], into: &report)
    else { return false }
    guard begun.ok, let session = begun.fields["session"]?.stringValue,
      let start = begun.fields["start"]?.numberValue
    else { return true }
    report.sessionsBegun += 1
    guard
      let subscribed = client.ask(
        .subscribe,
        ["session": .string(session), "fps": .number(fps), "encoding": .string(encoding.rawValue)],
        into: &report)
    else { return false }
    guard subscribed.ok else { return true }
    // The stream may be older than this subscription (a `*` subscriber of the same rate made
    // it when the session began): its seq then starts past 0.
    var expected: Int?
    let end = Monotonic.now + 10
    while case let left = end - Monotonic.now, left > 0 {
      let event: Event
      do {
        event = try client.nextEvent(timeout: .milliseconds(Int(left * 1000) + 1))
      } catch {
        if error.code == .timeout { continue }
        if error.code == .malformed { report.malformed += 1 }
        report.note("steady subscriber of \(session): \(error)")
        return false
      }
      let arrived = Monotonic.now
      switch event {
      case .frame(let frame) where frame.session == session:
        report.frames += 1
        report.checkedFrames += 1
        if encoding == .delta {
          report.deltaFrames += 1
          if expected == nil, frame.key != true {
            report.malformed += 1
            report.note("\(session): the delta subscription's first frame is no key frame")
          }
        }
        if let expected, frame.seq != expected {
          report.gaps += 1
          report.note(
            "\(session) (\(transition.animator), \(fps) fps): seq \(frame.seq) after \(expected - 1)"
          )
        }
        expected = frame.seq + 1
        let late = arrived - (start + frame.t)
        report.lateness.record(late)
        if late >= SoakLimits.lateFrameSeconds {
          WorkerReport.keep(LateSpan(due: start + frame.t, arrived: arrived), in: &report.lateSpans)
          report.note(
            "\(session) (\(transition.animator), \(fps) fps): frame \(frame.seq) arrived "
              + "\(Int((late * 1000).rounded())) ms after it was due, at "
              + wallClock.string(from: Date()))
        }
      case .complete(let complete) where complete.session == session:
        return true
      case .stopping:
        report.note("the daemon said stopping during the soak")
        return false
      default:
        continue
      }
    }
    report.incomplete += 1
    report.note("session \(session) did not complete within 10 s")
    return true
  }
}
