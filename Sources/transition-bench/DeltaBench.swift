import Foundation

/// The bytes of delta frames against full frames, through a real `transitiond`: one session of
/// a scene read twice at once, by a full and by a delta subscription on the virtual clock at
/// `fps` (so both read the same frames: every frame from t = 0 to the end), every `frame`
/// line's bytes summed, the delta's key frame included.
struct DeltaBench {
  let daemon: DaemonProcess

  struct Result {
    var frames = 0
    var fullBytes = 0
    var deltaBytes = 0
    /// The full frames' bytes over the delta frames' bytes.
    var ratio: Double { Double(fullBytes) / Double(max(deltaBytes, 1)) }
  }

  /// Begins `context` (JSON text) with `animator` and reads it full and as deltas.
  func run(context: String, animator: String, fps: Int) throws -> Result {
    let socket = try LineSocket(path: daemon.socketPath)
    let begin = try socket.request(
      #"{"op":"begin","animator":"\#(animator)","interactive":true,"context":\#(context)}"#)
    guard begin.contains(#""ok":true"#), let session = begin.value(of: "session") else {
      throw BenchError("begin failed: \(begin)")
    }
    var result = Result()
    for encoding in ["full", "delta"] {
      let reply = try socket.request(
        #"{"op":"subscribe","session":"\#(session)","fps":\#(fps),"clock":"virtual","encoding":"\#(encoding)"}"#
      )
      guard reply.contains(#""ok":true"#) else { throw BenchError("subscribe failed: \(reply)") }
      while true {
        let line = try socket.readText()
        if line.hasPrefix(#"{"event":"complete""#) || line.contains(#""event":"complete""#) {
          break
        }
        guard line.hasPrefix(#"{"event":"frame""#) else { continue }
        // The line and its newline.
        if encoding == "full" {
          result.fullBytes += line.utf8.count + 1
          result.frames += 1
        } else {
          result.deltaBytes += line.utf8.count + 1
        }
      }
    }
    _ = try socket.request(#"{"op":"end","session":"\#(session)"}"#)
    return result
  }
}
