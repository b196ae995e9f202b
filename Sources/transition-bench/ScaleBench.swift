import Foundation
import TransitionWire

/// Many wall-clock sessions at once: `sessions` zoom-present sessions at `fps`, subscribed
/// over `connections` connections with `encoding` (`full` or `delta`), each read by its own
/// thread.
///
/// Lateness of a frame is its arrival time minus the instant it shows (the session's `start`,
/// from the `begin` reply, plus its `t`), on the monotonic clock both processes share. (From a
/// daemon that does not report `start`, the moment the `begin` was sent stands in for it,
/// which overstates lateness by the begin's round trip.) A `seq` gap is a frame a subscriber
/// never got.
struct ScaleBench {
  struct Result {
    var sessions: Int
    var fps: Int
    var connections: Int
    var layers = 0
    var framesRead = 0
    /// Every byte the readers read (frames, replies and `complete` events).
    var bytesRead = 0
    var framesDue = 0
    var gaps = 0
    var lateness = Percentiles([])
    var cpuFraction = 0.0
    var peakResidentBytes = 0
    var seconds = 0.0
    /// The CPU the benchmark's own readers used meanwhile, in cores.
    var readerCPUFraction = 0.0
  }

  let daemon: DaemonProcess

  /// Runs the scenario: every session lasts `seconds` of streaming after the subscriptions.
  func run(
    sessions: Int, fps: Int, connections: Int, encoding: FrameEncoding = .full, seconds: Double
  ) throws -> Result {
    var result = Result(sessions: sessions, fps: fps, connections: connections)
    let control = try LineSocket(path: daemon.socketPath)
    let readers = try (0..<connections).map { _ in try LineSocket(path: daemon.socketPath) }
    // Every session begins first, for the measured time plus what beginning and subscribing
    // the others takes (about a millisecond each on a loaded machine).
    let setup = 0.5 + Double(sessions) * 0.001
    let duration = seconds + setup
    var starts = [Double](repeating: 0, count: sessions)
    for index in 0..<sessions {
      let sent = Monotonic.now
      let reply = try control.request(
        #"{"op":"begin","session":"z\#(index)","duration":\#(duration),"context":\#(BenchContexts.zoomPresent)}"#
      )
      guard reply.contains(#""ok":true"#) else { throw BenchError("begin failed: \(reply)") }
      starts[index] = reply.value(of: "start").flatMap(Double.init) ?? sent
      if index == 0 { result.layers = reply.value(of: "layers").flatMap(Int.init) ?? 0 }
    }
    let startTimes = starts
    let subscribed = Monotonic.now
    let cpuBefore = daemon.cpuSeconds
    let readerCPUBefore = Self.ownCPUSeconds()
    let collector = Collector()
    runOnThreads(connections) { connection in
      let socket = readers[connection]
      let mine = Array(stride(from: connection, to: sessions, by: connections))
      do {
        let requests = mine.map {
          #"{"op":"subscribe","session":"z\#($0)","fps":\#(fps),"clock":"wall","encoding":"\#(encoding.rawValue)"}"#
            + "\n"
        }.joined()
        try Array(requests.utf8).withUnsafeBytes { try socket.sendAll($0) }
        var parser = FrameLineParser()
        var lastSeq = [Int](repeating: -1, count: sessions)
        var lateness: [Double] = []
        lateness.reserveCapacity(Int(duration * Double(fps)) * mine.count + 64)
        var frames = 0
        var bytes = 0
        var gaps = 0
        var completes = 0
        var failure: Error?
        while completes < mine.count, failure == nil {
          let more = socket.readChunk { chunk, arrival in
            bytes += chunk.count
            parser.feed(chunk) { line in
              switch line {
              case .frame(let session, let seq, let t, _):
                guard session < sessions else { return }
                frames += 1
                if lastSeq[session] >= 0, seq != lastSeq[session] + 1 {
                  gaps += max(seq - lastSeq[session] - 1, 0)
                }
                lastSeq[session] = seq
                lateness.append(arrival - (startTimes[session] + t))
              case .complete: completes += 1
              case .failure(let line): failure = BenchError("a request failed: \(line)")
              case .other: break
              }
            }
          }
          if !more { failure = BenchError("the daemon closed a connection") }
        }
        collector.add(
          frames: frames, bytes: bytes, gaps: gaps, lateness: lateness, failure: failure)
      } catch {
        collector.add(frames: 0, bytes: 0, gaps: 0, lateness: [], failure: error)
      }
    }
    let finished = Monotonic.now
    if let failure = collector.failure { throw failure }
    result.seconds = finished - subscribed
    result.cpuFraction = (daemon.cpuSeconds - cpuBefore) / result.seconds
    result.readerCPUFraction = (Self.ownCPUSeconds() - readerCPUBefore) / result.seconds
    result.peakResidentBytes = daemon.peakResidentBytes
    result.framesRead = collector.frames
    result.bytesRead = collector.bytes
    result.gaps = collector.gaps
    result.lateness = Percentiles(collector.lateness)
    // Each session shows a frame at every grid deadline between its subscription and its end.
    result.framesDue = starts.reduce(0) { due, start in
      due + max(Int(((start + duration - subscribed) * Double(fps)).rounded(.down)), 0)
    }
    return result
  }
}

extension ScaleBench {
  /// User plus system CPU seconds this process has used (`getrusage`).
  static func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }
}

/// What the reader threads found, merged.
final class Collector: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var frames = 0
  private(set) var bytes = 0
  private(set) var gaps = 0
  private(set) var lateness: [Double] = []
  private(set) var failure: Error?

  func add(frames: Int, bytes: Int, gaps: Int, lateness: [Double], failure: Error?) {
    lock.lock()
    defer { lock.unlock() }
    self.frames += frames
    self.bytes += bytes
    self.gaps += gaps
    self.lateness += lateness
    if self.failure == nil { self.failure = failure }
  }
}
