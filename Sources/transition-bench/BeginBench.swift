import Foundation

/// `begin` latency through a real `transitiond`: `count` begins of the album-flip scene, one
/// after another over one connection, each timed from the request's write to its reply's
/// arrival (each session is then ended with the admin `end`, untimed).
///
/// The figure is the whole round trip a client sees: parse, route, the animator's timeline
/// (wherever the plugin runs), decode, session start, reply.
struct BeginBench {
  let bench: StreamBench

  /// The latencies in seconds, sorted ascending.
  func run(count: Int) throws -> [Double] {
    let socket = try LineSocket(path: bench.socketPath)
    let request = #"{"op":"begin","interactive":true,"context":\#(StreamBench.context)}"#
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
      let start = DispatchTime.now().uptimeNanoseconds
      let reply = try socket.request(request)
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      guard let session = reply.value(of: "session") else {
        throw BenchError("begin failed: \(reply)")
      }
      _ = try socket.request(#"{"op":"end","session":"\#(session)"}"#)
    }
    return samples.sorted()
  }

  /// The value at `fraction` (0...1) of sorted `samples`.
  static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let index = Int((Double(samples.count - 1) * fraction).rounded())
    return samples[min(max(index, 0), samples.count - 1)]
  }
}
