import Foundation

/// `begin` → its reply: the time from sending a `begin` (a zoom-present present, answered by
/// the animator plugin) to reading the reply that names the session, each session ended at
/// once so that the table stays small.
struct BeginBench {
  let daemon: DaemonProcess

  /// Returns the latencies in seconds of `count` begins.
  func run(count: Int) throws -> Percentiles {
    let socket = try LineSocket(path: daemon.socketPath)
    var latencies: [Double] = []
    for index in 0..<count {
      let sent = Monotonic.now
      let reply = try socket.request(
        #"{"op":"begin","session":"b\#(index)","duration":1,"context":\#(BenchContexts.zoomPresent)}"#
      )
      latencies.append(Monotonic.now - sent)
      guard reply.contains(#""ok":true"#) else { throw BenchError("begin failed: \(reply)") }
      _ = try socket.request(#"{"op":"end","session":"b\#(index)"}"#)
    }
    return Percentiles(latencies)
  }
}
