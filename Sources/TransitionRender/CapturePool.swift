import Foundation

/// Captures a list of frames with several tabs of one browser at once, one ``ViewerCapture``
/// each on its own thread, and hands the pictures out in the list's order.
///
/// Most of a capture is waiting for the browser's next animation frame and for its compositor,
/// not computing (docs/performance.md, "Rendering"): a second tab works while the first one
/// waits. Every frame is still captured alone in its tab, by the same steps, so the pictures
/// are those one tab would take. Tab `k` takes the frames at positions `k`, `k + tabs`, …; a
/// tab runs at most ``lead`` positions ahead of the picture handed out last, so that memory
/// stays bounded whatever the length.
public final class CapturePool: @unchecked Sendable {
  /// How far ahead of the next picture to hand out a tab may capture, in positions.
  public let lead: Int

  private let tabs: [ViewerCapture]
  private let frames: [Int]
  private let state = NSCondition()
  /// Pictures captured and not handed out yet, by position.
  private var ready: [Int: [UInt8]] = [:]
  /// The position handed out next.
  private var next = 0
  private var failure: DevToolsPipe.Failure?
  private var stopped = false
  private var running = 0

  /// - Parameters:
  ///   - tabs: the tabs to capture with, each showing the same page.
  ///   - frames: the recorded frame of each output position (``FrameSchedule/frames``).
  public init(tabs: [ViewerCapture], frames: [Int]) {
    precondition(!tabs.isEmpty, "a capture pool needs a tab")
    self.tabs = tabs
    self.frames = frames
    lead = 4 * tabs.count
  }

  /// Captures every frame, calling `deliver(position, png)` on the calling thread in order of
  /// position as soon as each picture and those before it are ready.
  ///
  /// - Throws: the first capture's ``DevToolsPipe/Failure`` (the other tabs stop after their
  ///   current frame), or what `deliver` throws.
  public func run(deliver: (Int, [UInt8]) throws -> Void) throws {
    state.lock()
    running = tabs.count
    state.unlock()
    for (index, tab) in tabs.enumerated() {
      let thread = Thread { [self] in work(tab: tab, first: index) }
      thread.start()
    }
    defer {
      // Stop the tabs and wait for them: none outlives the call.
      state.lock()
      stopped = true
      state.broadcast()
      while running > 0 { state.wait() }
      state.unlock()
    }
    while next < frames.count {
      state.lock()
      while ready[next] == nil, failure == nil { state.wait() }
      if let failure {
        state.unlock()
        throw failure
      }
      let png = ready.removeValue(forKey: next)!
      let position = next
      next += 1
      state.broadcast()
      state.unlock()
      try deliver(position, png)
    }
  }

  /// One tab's thread: its positions in order, each once the tab may run that far ahead.
  private func work(tab: ViewerCapture, first: Int) {
    defer {
      state.lock()
      running -= 1
      state.broadcast()
      state.unlock()
    }
    var position = first
    while position < frames.count {
      state.lock()
      while position - next >= lead, !stopped, failure == nil { state.wait() }
      let go = !stopped && failure == nil
      state.unlock()
      guard go else { return }
      do {
        let png = try tab.capture(frame: frames[position])
        state.lock()
        ready[position] = png
        state.broadcast()
        state.unlock()
      } catch {
        state.lock()
        if failure == nil { failure = error }
        state.broadcast()
        state.unlock()
        return
      }
      position += tabs.count
    }
  }
}
