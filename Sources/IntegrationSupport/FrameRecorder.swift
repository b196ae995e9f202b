import Foundation
import TransitionClient
import TransitionJSON

/// A healthy client streaming a long session at 60 fps on the wall clock, recording each
/// frame's `seq` and `t` on a background thread while a test makes a plugin misbehave.
final class FrameRecorder: @unchecked Sendable {
  /// The frame rate streamed.
  static let fps = 60.0

  private let client: DaemonClient
  private let lock = NSCondition()
  private var recorded: [(seq: Int, t: Double)] = []
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  /// Begins a 60-second `default-slide` push and subscribes to it.
  init(daemon: DaemonProcess) throws {
    client = try daemon.client()
    let reply = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "default-slide",
      "duration": 60,
    ])
    guard let session = reply.fields["session"]?.stringValue else {
      throw DaemonHarnessError("the streaming begin failed: \(reply.line)")
    }
    _ = try client.subscribe(session: session, fps: Self.fps, clock: .wall)
  }

  /// Starts reading frames.
  func start() {
    let thread = Thread { [self] in
      while !isStopped {
        guard let event = try? client.nextEvent(timeout: .milliseconds(100)) else { continue }
        if case .frame(let frame) = event { record(seq: frame.seq, t: frame.t) }
      }
      done.signal()
    }
    thread.start()
  }

  /// The frames read so far, in order.
  var frames: [(seq: Int, t: Double)] { lock.withLock { recorded } }

  /// Stops reading and returns the frames read, in order.
  func stop() -> [(seq: Int, t: Double)] {
    lock.withLock { stopped = true }
    done.wait()
    return frames
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func record(seq: Int, t: Double) {
    lock.withLock {
      recorded.append((seq, t))
      lock.broadcast()
    }
  }

  /// Waits until `count` frames in all have been read, for at most 20 s.
  /// - Returns: Whether they were.
  @discardableResult
  func waitForFrames(_ count: Int) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    return lock.withLock {
      while recorded.count < count {
        guard lock.wait(until: deadline) else { return recorded.count >= count }
      }
      return true
    }
  }

  /// Whether the machine lets the daemon keep a 60 fps cadence at all: the 1-minute load
  /// average is below the number of processors and the stream's `control` window, recorded
  /// before anything went wrong, has no gap over two frame periods.
  static func machineIsQuiet(control: [(seq: Int, t: Double)]) -> Bool {
    let load =
      (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
      .flatMap { $0.split(separator: " ").first.flatMap { Double($0) } } ?? .infinity
    let processors = Double(ProcessInfo.processInfo.activeProcessorCount)
    return load < processors && continuity(of: control).maxGap <= 2 / fps + 0.001
  }

  /// The longest step in `t` between consecutive frames, and whether `seq` never skipped.
  static func continuity(of frames: [(seq: Int, t: Double)]) -> (
    maxGap: Double, seqContinuous: Bool
  ) {
    var maxGap = 0.0
    var continuous = true
    for (previous, next) in zip(frames, frames.dropFirst()) {
      maxGap = max(maxGap, next.t - previous.t)
      if next.seq != previous.seq + 1 { continuous = false }
    }
    return (maxGap, continuous)
  }
}
