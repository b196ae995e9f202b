import Foundation

/// `update` → the frame that shows it: the time from sending an `update` on an interactive
/// session to reading the frame with that progress, while `background` other sessions stream
/// at `fps` (read by their own threads).
struct UpdateBench {
  let daemon: DaemonProcess

  /// Sends `updates` updates a few milliseconds apart (off any frame grid); returns the
  /// latencies in seconds.
  func run(updates: Int, background: Int, fps: Int) throws -> Percentiles {
    let control = try LineSocket(path: daemon.socketPath)
    let connections = min(10, background)
    let backgroundReaders = try (0..<connections).map { _ in
      try LineSocket(path: daemon.socketPath)
    }
    for index in 0..<background {
      let reply = try control.request(
        #"{"op":"begin","session":"bg\#(index)","duration":600,"context":\#(BenchContexts.zoomPresent)}"#
      )
      guard reply.contains(#""ok":true"#) else { throw BenchError("begin failed: \(reply)") }
      try backgroundReaders[index % connections].send(
        #"{"op":"subscribe","session":"bg\#(index)","fps":\#(fps),"clock":"wall"}"#)
    }
    let stop = StopFlag()
    let drainers = backgroundReaders.map { socket in
      let thread = Thread {
        while !stop.isSet, socket.readChunk({ _, _ in }) {}
      }
      thread.start()
      return thread
    }
    defer { _ = drainers }
    let driver = try LineSocket(path: daemon.socketPath)
    let begin = try driver.request(
      #"{"op":"begin","session":"u0","interactive":true,"duration":1,"context":\#(BenchContexts.zoomPresent)}"#
    )
    guard begin.contains(#""ok":true"#) else { throw BenchError("begin failed: \(begin)") }
    _ = try driver.request(#"{"op":"subscribe","session":"u0","fps":\#(fps),"clock":"wall"}"#)
    var parser = FrameLineParser()
    var latencies: [Double] = []
    for index in 0..<updates {
      usleep(UInt32.random(in: 2_000...8_000))
      // Three decimals, which every number writer spells the same way.
      let progress = Double(100 + (index * 7) % 800) / 1000
      let sent = Monotonic.now
      try driver.send(#"{"op":"update","session":"u0","progress":\#(progress)}"#)
      var arrived: Double?
      while arrived == nil {
        guard
          driver.readChunk({ chunk, time in
            parser.feed(chunk) { line in
              if case .frame(_, _, _, let shown) = line, abs(shown - progress) < 1e-9 {
                arrived = time
              }
            }
          })
        else { throw BenchError("the daemon closed the driver's connection") }
      }
      latencies.append(arrived! - sent)
    }
    stop.set()
    for index in 0..<background {
      _ = try control.request(#"{"op":"end","session":"bg\#(index)"}"#)
    }
    _ = try control.request(#"{"op":"end","session":"u0"}"#)
    return Percentiles(latencies)
  }
}

/// A flag one thread sets and others read.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
