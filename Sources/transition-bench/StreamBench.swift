import Foundation

/// End-to-end streaming through a real `transitiond`: frames per second a subscriber reads
/// with `clock: "virtual"` (as fast as it reads), from `subscribe` to `complete`.
///
/// Readers count lines on raw sockets (``LineSocket/countUntilComplete()``), so the figure is
/// the daemon's (evaluate, encode, write) and the socket's, not a client library's decoding.
struct StreamBench {
  let daemon: DaemonProcess

  /// Begins one album-flip push of `frames` virtual frames at `fps` and reads it with
  /// `readers` subscribers at once; returns (frames read in all, bytes read in all, layers a
  /// frame, seconds from the first subscribe to the last `complete`, CPU seconds the daemon
  /// spent meanwhile).
  func run(frames: Int, fps: Int, readers: Int) throws -> (
    frames: Int, bytes: Int, layers: Int, seconds: Double, cpuSeconds: Double
  ) {
    let control = try LineSocket(path: daemon.socketPath)
    let seconds = Double(frames) / Double(fps)
    let begin = try control.request(
      #"{"op":"begin","interactive":true,"duration":\#(seconds),"context":\#(BenchContexts.albumPush)}"#
    )
    guard let session = begin.value(of: "session"),
      let layers = begin.value(of: "layers").flatMap(Int.init)
    else { throw BenchError("begin failed: \(begin)") }
    let totals = Totals()
    let sockets = try (0..<readers).map { _ in try LineSocket(path: daemon.socketPath) }
    let cpuBefore = daemon.cpuSeconds
    let start = Monotonic.now
    runOnThreads(readers) { index in
      let socket = sockets[index]
      do {
        try socket.send(
          #"{"op":"subscribe","session":"\#(session)","fps":\#(fps),"clock":"virtual"}"#)
        let read = try socket.countUntilComplete()
        // The subscribe reply is a line too.
        totals.add(frames: read.lines - 1, bytes: read.bytes)
      } catch {
        totals.fail(error)
      }
    }
    let elapsed = Monotonic.now - start
    let cpu = daemon.cpuSeconds - cpuBefore
    if let failure = totals.failure { throw failure }
    _ = try control.request(#"{"op":"end","session":"\#(session)"}"#)
    return (totals.frames, totals.bytes, layers, elapsed, cpu)
  }

  /// The frame lines of one album-flip push read with the virtual clock, `count` of them
  /// spread over the whole transition: the bytes the socket's own limit is measured with.
  func sampleFrames(count: Int) throws -> [[UInt8]] {
    let socket = try LineSocket(path: daemon.socketPath)
    let begin = try socket.request(
      #"{"op":"begin","interactive":true,"duration":\#(count - 1),"context":\#(BenchContexts.albumPush)}"#
    )
    guard let session = begin.value(of: "session") else {
      throw BenchError("begin failed: \(begin)")
    }
    _ = try socket.request(#"{"op":"subscribe","session":"\#(session)","fps":1,"clock":"virtual"}"#)
    var lines: [[UInt8]] = []
    while true {
      let line = try socket.readText()
      if line.hasPrefix(#"{"event":"frame""#) { lines.append(Array((line + "\n").utf8)) }
      if line.contains(#""event":"complete""#) { break }
    }
    _ = try socket.request(#"{"op":"end","session":"\#(session)"}"#)
    return lines
  }
}

/// Frames and bytes read by concurrent readers, and the first failure.
final class Totals: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var frames = 0
  private(set) var bytes = 0
  private(set) var failure: Error?

  func add(frames: Int, bytes: Int) {
    lock.lock()
    defer { lock.unlock() }
    self.frames += frames
    self.bytes += bytes
  }

  func fail(_ error: Error) {
    lock.lock()
    defer { lock.unlock() }
    if failure == nil { failure = error }
  }
}
