import TransitionKit
import TransitionWire

/// Where a virtual-clock subscription is in one session's timeline: frame k shows
/// t = min(k / fps, duration), from k = 0 to ⌈duration × fps⌉, as if the transition ran
/// uninterrupted (up to the instant another session interrupted it). Holds the session, so
/// its timeline outlives completion until read.
public final class VirtualCursor {
  public let session: any StreamedSession
  public let fps: Double
  private(set) var index = 0
  /// The index of the last frame, which shows the end of the timeline.
  let lastIndex: Int
  /// Writes the deltas of a delta reading (nil for a full one); each reading has its own.
  private var deltaEncoder: FrameDeltaEncoder?
  /// Writes the full lines of a reading whose layers carry their projected geometry (nil:
  /// the session renderer's lines).
  private var fullEncoder: FrameEncoder?
  private var keyWriter = KeyFrameWriter()
  /// Which frame the delta encoder holds, and the choice of each frame's lines.
  private var sync = FrameSync()
  /// True when the next frame of a delta reading is a key frame: the first, and after `resync`.
  public var needsKeyFrame = true
  /// True once the frame at an interruption's instant was produced: the reading ends there.
  private var reachedInterruption = false

  public init(
    session: any StreamedSession, fps: Double, encoding: FrameEncoding,
    geometry: FrameGeometry = .none
  ) {
    self.session = session
    self.fps = fps
    if geometry != .none {
      fullEncoder = FrameEncoder(geometry: geometry)
    }
    if encoding == .delta {
      deltaEncoder =
        geometry == .none
        ? FrameDeltaEncoder(animatedFields: session.animatedFields)
        : FrameDeltaEncoder(geometry: geometry)
    }
    let frames = (session.duration * fps * (1 - 1e-12)).rounded(.up)
    lastIndex = Int(min(max(frames, 1), 1e9))
  }

  /// Renders the next frame and lends its encoded line to `body`: the full line, or for a
  /// delta reading the delta, or the key frame it needs (``FrameSync``).
  ///
  /// - Returns: False, without calling `body`, once the last frame was produced.
  public func nextFrame(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
    guard index <= lastIndex, !reachedInterruption else { return false }
    let duration = session.duration
    var t = index == lastIndex ? duration : min(Double(index) / fps, duration)
    var progress = t / duration
    // A session another interrupted ends at the instant it was interrupted, as presented then.
    if let end = session.interruptionTime, t >= end {
      t = end
      progress = session.progress(at: session.startTime + end)
      reachedInterruption = true
    }
    let line = FrameSync.line(isDelta: deltaEncoder != nil, needsKeyFrame: needsKeyFrame)
    let plan = sync.decide(seq: index, takers: .init(line), keepsEncoderInStep: false)
    session.produce(
      plan, seq: index, progress: progress, t: t, live: false, fullEncoder: &fullEncoder,
      encoder: &deltaEncoder,
      sync: &sync
    ) { lines in
      lines.write(line, keyWriter: &keyWriter, body)
    }
    // Each frame of a reading goes to its reader: the one before is the one it has.
    sync.checkLine(line, seq: index, lastReceived: index > 0 ? index - 1 : nil)
    needsKeyFrame = false
    index += 1
    return true
  }
}

@available(*, unavailable) extension VirtualCursor: Sendable {}
