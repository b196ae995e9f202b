import TransitionClient
import TransitionJSON
import TransitionWire

/// A client process that churns: connects, begins sessions of every animator, subscribes on
/// the wall clock at 30, 60 or 120 fps or on the virtual clock, and then watches to the end,
/// reverses, cancels, drives an interactive session to a finish or a cancel, pauses and
/// seeks, or disconnects mid-stream; then connects again, until its deadline.
struct ChurnWorker: SocketWorker {
  let socketPath: String
  let transitions: [SoakTransition]
  let deadline: Double
  var random: SoakRandom
  var report = WorkerReport(role: "churn")

  /// What a session is put through.
  enum Plan: CaseIterable {
    case watch, reverse, cancel, drive, pauseAndSeek, virtualClock, disconnect
  }

  init(socketPath: String, transitions: [SoakTransition], deadline: Double, seed: UInt64) {
    self.socketPath = socketPath
    self.transitions = transitions
    self.deadline = deadline
    random = SoakRandom(seed: seed)
    report.seed = seed
  }

  mutating func run() -> WorkerReport {
    connectUntilDeadline { worker, client in
      let sessions = Int.random(in: 1...4, using: &worker.random)
      for _ in 0..<sessions where Monotonic.now < worker.deadline {
        if !worker.churnOneSession(on: client) { break }
      }
    }
    return report
  }

  /// Begins, subscribes to and plays one session.
  /// - Returns: false when the connection was closed (on purpose or not).
  private mutating func churnOneSession(on client: DaemonClient) -> Bool {
    let transition = transitions.randomElement(using: &random)!
    let plan = Plan.allCases.randomElement(using: &random)!
    var fields: [String: JSONValue] = [
      "context": .object(transition.context), "animator": .string(transition.animator),
      "duration": .number(Double.random(in: 0.25...0.8, using: &random)),
    ]
    if plan == .drive { fields["interactive"] = true }
    guard let begun = client.ask(.begin, fields, into: &report) else { return false }
    guard begun.ok, let session = begun.fields["session"]?.stringValue else { return true }
    report.sessionsBegun += 1
    let subscription: [String: JSONValue] =
      plan == .virtualClock
      ? [
        "session": .string(session), "clock": "virtual",
        "fps": .number([30, 60].randomElement(using: &random)!),
      ]
      : [
        "session": .string(session), "fps": .number([30, 60, 120].randomElement(using: &random)!),
      ]
    guard let subscribed = client.ask(.subscribe, subscription, into: &report) else { return false }
    guard subscribed.ok else { return true }
    let control = { (report: inout WorkerReport, op: Op, extra: [String: JSONValue]) -> Bool in
      client.ask(op, extra.merging(["session": .string(session)]) { new, _ in new }, into: &report)
        != nil
    }
    var completed = false
    switch plan {
    case .watch, .virtualClock:
      break
    case .reverse, .cancel:
      completed = client.readFrames(3, of: session, within: 2, into: &report)
      if !completed {
        guard control(&report, plan == .reverse ? .reverse : .cancel, [:]) else { return false }
      }
    case .drive:
      for progress in [0.2, 0.5, 0.7] {
        guard control(&report, .update, ["progress": .number(progress)]) else { return false }
        completed = client.readFrames(1, of: session, within: 1, into: &report)
      }
      let velocity = Double.random(in: -2...2, using: &random)
      guard
        control(
          &report, Bool.random(using: &random) ? .finish : .cancel, ["velocity": .number(velocity)])
      else { return false }
    case .pauseAndSeek:
      completed = client.readFrames(2, of: session, within: 2, into: &report)
      if !completed {
        for (op, extra) in [
          (Op.pause, [:]), (.seek, ["progress": JSONValue.number(0.5)]), (.resume, [:]),
        ] {
          guard control(&report, op, extra) else { return false }
        }
      }
    case .disconnect:
      _ = client.readFrames(
        Int.random(in: 0...3, using: &random), of: session, within: 1, into: &report)
      return false
    }
    if !completed { _ = client.readUntilComplete(of: session, within: 10, into: &report) }
    return true
  }
}
