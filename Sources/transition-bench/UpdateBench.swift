import Foundation
import Synchronization

/// `update` → the frame that shows it: the time from sending an `update` on an interactive
/// session to reading the frame with that progress, while `background` other sessions stream
/// at `fps` (read by their own threads); beside each update, the same round trip to an
/// ``UpdateEchoPeer`` on a thread of the bench and to one in a process of its own
/// (``EchoProcess``): the machine's floor, from the same client with the same pacing.
struct UpdateBench {
  let daemon: DaemonProcess

  /// The round trips of one run, in seconds.
  struct Latencies {
    var daemon: Percentiles
    var floor: Percentiles
    var processFloor: Percentiles
    /// The daemon's and the echo process's, of the round trips begun in the ``tickWindow``
    /// before a tick's frames reached the background readers (while the frame clock may be
    /// rendering that tick ahead of its deadline, and the readers are about to wake), and of
    /// the others.
    var daemonByTick: (before: Percentiles, between: Percentiles)
    var processFloorByTick: (before: Percentiles, between: Percentiles)
  }

  /// How long before a tick's frames arrive an update counts as sent before the tick: longer
  /// than the frame clock's render lead for the background sessions; also the quiet a reader
  /// sees before a tick's frames, which are read together.
  static let tickWindow = 0.004

  /// Sends `updates` updates a few milliseconds apart (off any frame grid), each followed by
  /// one to each echo peer.
  func run(updates: Int, background: Int, fps: Int) throws -> Latencies {
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
    let ticks = TickArrivals()
    let drainers = backgroundReaders.map { socket in
      let thread = Thread {
        // A tick's frames arrive together, then nothing for most of a frame period.
        var last = -Double.infinity
        while !stop.isSet,
          socket.readChunk({ _, time in
            if time - last > Self.tickWindow { ticks.add(time) }
            last = time
          })
        {}
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
    var frame = try driver.readText()
    while !frame.hasPrefix(#"{"event":"frame""#) { frame = try driver.readText() }
    let peer = try UpdateEchoPeer(frame: Array((frame + "\n").utf8))
    let echo = try peer.connect()
    let echoProcess = try EchoProcess.Child(frame: frame)
    defer { echoProcess.stop() }
    var daemonTrip = RoundTrip(socket: driver)
    var floorTrip = RoundTrip(socket: echo)
    var processFloorTrip = RoundTrip(socket: try echoProcess.connect())
    var latencies: [Double] = []
    var floor: [Double] = []
    var processFloor: [Double] = []
    var sent: [Double] = []
    var processSent: [Double] = []
    for index in 0..<updates {
      // Three decimals, which every number writer spells the same way.
      let progress = Double(100 + (index * 7) % 800) / 1000
      let line = #"{"op":"update","session":"u0","progress":\#(progress)}"#
      usleep(UInt32.random(in: 2_000...8_000))
      sent.append(Monotonic.now)
      latencies.append(try daemonTrip.time(line, showing: progress))
      usleep(UInt32.random(in: 2_000...8_000))
      floor.append(try floorTrip.time(line, showing: progress))
      usleep(UInt32.random(in: 2_000...8_000))
      processSent.append(Monotonic.now)
      processFloor.append(try processFloorTrip.time(line, showing: progress))
    }
    stop.set()
    for index in 0..<background {
      _ = try control.request(#"{"op":"end","session":"bg\#(index)"}"#)
    }
    _ = try control.request(#"{"op":"end","session":"u0"}"#)
    let arrivals = ticks.sorted
    return Latencies(
      daemon: Percentiles(latencies), floor: Percentiles(floor),
      processFloor: Percentiles(processFloor),
      daemonByTick: Self.split(latencies, sent: sent, ticks: arrivals),
      processFloorByTick: Self.split(processFloor, sent: processSent, ticks: arrivals))
  }

  /// `latencies` of round trips begun at `sent`, those begun within ``tickWindow`` before one
  /// of `ticks` (sorted) apart from the others.
  private static func split(_ latencies: [Double], sent: [Double], ticks: [Double]) -> (
    before: Percentiles, between: Percentiles
  ) {
    var before: [Double] = []
    var between: [Double] = []
    for (time, latency) in zip(sent, latencies) {
      let next = ticks.first { $0 > time } ?? .infinity
      if next - time <= tickWindow {
        before.append(latency)
      } else {
        between.append(latency)
      }
    }
    return (Percentiles(before), Percentiles(between))
  }
}

/// One client's round trips: a line sent, then the frame that shows its progress read.
private struct RoundTrip {
  let socket: LineSocket
  var parser = FrameLineParser()

  /// Sends `line` and returns the seconds until a frame with `progress` arrived.
  mutating func time(_ line: String, showing progress: Double) throws -> Double {
    let sent = Monotonic.now
    try socket.send(line)
    var arrived: Double?
    while arrived == nil {
      guard
        socket.readChunk({ chunk, time in
          parser.feed(chunk) { line in
            if case .frame(_, _, _, let shown) = line, abs(shown - progress) < 1e-9 {
              arrived = time
            }
          }
        })
      else { throw BenchError("the peer closed the connection") }
    }
    return arrived! - sent
  }
}

/// When the background readers saw each tick's frames arrive, from several threads.
private final class TickArrivals: Sendable {
  private let times = Mutex<[Double]>([])

  func add(_ time: Double) {
    times.withLock { $0.append(time) }
  }

  var sorted: [Double] { times.withLock { $0.sorted() } }
}

/// A flag one thread sets and others read.
final class StopFlag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}
