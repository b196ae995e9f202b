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

  /// Renders the next frame and lends its encoded line to `body`.
  ///
  /// - Returns: False, without calling `body`, once the last frame was produced.
  func nextFrame(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
    guard index <= lastIndex else { return false }
    let duration = session.duration
    let t = index == lastIndex ? duration : min(Double(index) / fps, duration)
    session.render(seq: index, progress: t / duration, t: t, live: false, body)
    index += 1
    return true
  }
}

@available(*, unavailable) extension VirtualCursor: Sendable {}
