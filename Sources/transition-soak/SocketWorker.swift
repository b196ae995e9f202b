import TransitionClient

/// A worker that talks to the daemon over its socket, one connection after another, until its
/// deadline.
protocol SocketWorker {
  var socketPath: String { get }
  var deadline: Double { get }
  var report: WorkerReport { get set }
}

extension SocketWorker {
  /// Until the deadline: connects (a connection that fails is noted and tried again 0.1 s
  /// later), counts the connection, has `use` work with it, then closes it.
  mutating func connectUntilDeadline(_ use: (inout Self, DaemonClient) -> Void) {
    while Monotonic.now < deadline {
      guard let client = try? DaemonClient(path: socketPath) else {
        report.note("cannot connect to \(socketPath)")
        Monotonic.sleep(0.1)
        continue
      }
      report.connections += 1
      use(&self, client)
      client.close()
    }
  }
}
