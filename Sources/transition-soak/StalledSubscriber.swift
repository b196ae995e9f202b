import TransitionClient
import TransitionJSON
import TransitionWire

/// A subscriber that stalls: subscribes to every session (`*`) at 60 fps, with full or (every
/// other time) delta frames, and then reads nothing for a few seconds before it hangs up and
/// does it again, so that the daemon's output for it piles up (coalesced frames, key frames
/// owed, a slow-subscriber disconnect) while everyone else goes on.
struct StalledSubscriber: SocketWorker {
  let socketPath: String
  let deadline: Double
  var random: SoakRandom
  var report = WorkerReport(role: "stalled")

  init(socketPath: String, deadline: Double, seed: UInt64) {
    self.socketPath = socketPath
    self.deadline = deadline
    random = SoakRandom(seed: seed)
    report.seed = seed
  }

  mutating func run() -> WorkerReport {
    connectUntilDeadline { worker, client in
      // The reply is read: a request gets one even from a subscriber that then stalls.
      let encoding: FrameEncoding = Bool.random(using: &worker.random) ? .delta : .full
      _ = client.ask(
        .subscribe, ["session": "*", "fps": 60, "encoding": .string(encoding.rawValue)],
        into: &worker.report)
      Monotonic.sleep(
        min(Double.random(in: 2...8, using: &worker.random), worker.deadline - Monotonic.now))
    }
    return report
  }
}
