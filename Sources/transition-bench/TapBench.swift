import Foundation

/// A tap's first frame: `begin` and its `subscribe` written together in one `write` on a
/// connection already open, timed from that write to the arrival of the session's first
/// `frame` line (the `begin` reply, the `subscribe` reply and the `begin` event come first).
/// Each session is ended with the admin `end` afterwards, untimed.
///
/// The figure is what a person tapping a cell waits for: parse, the animator's timeline from
/// the plugin host, decoding and compiling it, the first render, and its write.
struct TapBench {
  let daemon: DaemonProcess

  /// The latencies in seconds of `count` taps of `context` (JSON text).
  func run(count: Int, context: String) throws -> Percentiles {
    let socket = try LineSocket(path: daemon.socketPath)
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for index in 0..<count {
      let session = "tap\(index)"
      let lines =
        #"{"op":"begin","session":"\#(session)","context":\#(context)}"# + "\n"
        + #"{"op":"subscribe","session":"\#(session)","fps":60}"# + "\n"
      let bytes = Array(lines.utf8)
      let sent = Monotonic.now
      try bytes.withUnsafeBytes { try socket.sendAll($0) }
      while true {
        let line = try socket.readText()
        if line.hasPrefix(#"{"event":"frame""#) { break }
        if line.contains(#""ok":false"#) { throw BenchError("tap refused: \(line)") }
      }
      samples.append(Monotonic.now - sent)
      _ = try socket.request(#"{"op":"end","session":"\#(session)"}"#)
      // The end's final frame and complete, and nothing else of this session, follow.
      while !(try socket.readText()).contains(#""event":"complete""#) {}
    }
    return Percentiles(samples)
  }
}
