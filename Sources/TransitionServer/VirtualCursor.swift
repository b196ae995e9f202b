/// Where a virtual-clock subscription is in one session's timeline: frame k shows
/// t = min(k / fps, duration), from k = 0 to ⌈duration × fps⌉, as if the transition ran
/// uninterrupted. Holds the session, so its timeline outlives completion until read.
final class VirtualCursor {
  let session: Session
  let fps: Double
  private(set) var index = 0
  /// The index of the last frame, which shows the end of the timeline.
  let lastIndex: Int

  init(session: Session, fps: Double) {
    self.session = session
    self.fps = fps
    let frames = (session.duration * fps * (1 - 1e-12)).rounded(.up)
    lastIndex = Int(min(max(frames, 1), 1e9))
  }

  /// The next frame's encoded line, or nil once the last frame was produced.
  func nextFrame() -> [UInt8]? {
    guard index <= lastIndex else { return nil }
    let duration = session.duration
    let t = index == lastIndex ? duration : min(Double(index) / fps, duration)
    let bytes = session.render(seq: index, progress: t / duration, t: t)
    index += 1
    return bytes
  }
}

@available(*, unavailable) extension VirtualCursor: Sendable {}
