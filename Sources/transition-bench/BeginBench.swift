import Foundation

/// `begin` latency through a real `transitiond`: `count` begins of the album-flip scene (the
/// stream benchmark's, 32 layers), one after another over one connection, each timed from the
/// request's write to its reply's arrival (each session is then ended with the admin `end`,
/// untimed).
///
/// The figure is the whole round trip a client sees: parse, route, the animator's timeline
/// (wherever the plugin runs), decode, session start, reply. The same measurement as the
/// `begin` mode of the plugin-isolation work (issue 10), in its own file so either can keep it.
struct BeginBench {
  let daemon: DaemonProcess

  /// The latencies in seconds of `count` begins.
  func run(count: Int) throws -> Percentiles {
    let socket = try LineSocket(path: daemon.socketPath)
    let request = #"{"op":"begin","interactive":true,"context":\#(BenchContexts.albumPush)}"#
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
      let sent = Monotonic.now
      let reply = try socket.request(request)
      samples.append(Monotonic.now - sent)
      guard reply.contains(#""ok":true"#), let session = reply.value(of: "session") else {
        throw BenchError("begin failed: \(reply)")
      }
      _ = try socket.request(#"{"op":"end","session":"\#(session)"}"#)
    }
    return Percentiles(samples)
  }
}
