import TransitionWire

/// The wall-clock frames of one session at one frame rate, shared by every subscriber at that
/// rate: each frame is rendered once and the same bytes go to every subscriber
/// (docs/architecture.md, "The frame contract").
///
/// A stream renders a frame at once when it gains its first subscriber, when a subscriber
/// joins while the session stands still, and when the session changes (a control op); while
/// the session moves on its own, the stream ticks on the ``FrameClock`` of its rate. While the
/// session stands still (paused, or waiting for interaction) the stream is off the clock, so
/// it sends one frame per change and nothing in between. `seq` counts the frames this stream
/// produced, from 0.
final class FrameStream {
  /// The session the frames show; it owns its streams, and a stream leaves the frame clock
  /// and its subscribers before its session lets go of it. Unsafe-unowned because it is read
  /// for every frame, which must not cost reference counting.
  unowned(unsafe) let session: Session
  let fps: Double
  private(set) var subscribers: [Subscription] = []
  private let frameClocks: FrameClocks
  private var seq = 0
  /// The time the last frame showed; nil before the first. A frame clock's tick renders a
  /// stream only at grid times after it (a stream joins the grid at the next deadline).
  private(set) var lastFrameTime: Double?
  /// True while the stream ticks on the frame clock of its rate (kept by ``FrameClock``, so
  /// that a tick asks a stream rather than searching the clock's list).
  var isOnFrameClock = false

  init(session: Session, fps: Double, frameClocks: FrameClocks) {
    self.session = session
    self.fps = fps
    self.frameClocks = frameClocks
  }

  /// Adds a subscriber. One joining a moving session in the instant of the last frame gets
  /// that frame (so every subscriber of a session that has just begun sees its first frame,
  /// seq 0); otherwise the
  /// first one, or one joining a session that stands still, gets a frame at once (and so do
  /// the others), and any other joins at the next tick.
  func attach(_ subscription: Subscription, at now: Double) {
    let isFirst = subscribers.isEmpty
    subscribers.append(subscription)
    if !isFirst, session.isMoving, seq > 0, lastFrameTime == now {
      // The same frame again (same seq, same instant), rendered for this subscriber alone:
      // rarer than keeping a copy of every frame's bytes.
      let sessionID = session.id
      session.render(
        seq: seq - 1, progress: session.progress(at: now), t: now - session.startTime
      ) { bytes in
        subscription.client?.sendFrame(bytes, subscription: subscription, session: sessionID)
      }
      return
    }
    if isFirst || !session.isMoving { sessionChanged(at: now) }
  }

  /// Removes a subscriber; the last one leaving stops the stream.
  func detach(_ subscription: Subscription) {
    subscribers.removeAll { $0 === subscription }
    if subscribers.isEmpty { session.streamBecameEmpty(self) }
  }

  /// The session changed, or the stream must show it now: renders a frame of its current
  /// state at once, then ticks on the frame clock while the session moves.
  func sessionChanged(at now: Double) {
    guard !subscribers.isEmpty, !session.isCompleted else { return }
    tick(at: now)
    // The frame answers a request: it leaves now, not behind the rest of the iteration.
    for subscription in subscribers { subscription.client?.flushNow() }
    if session.isMoving { frameClocks.add(self) }
  }

  /// Renders the frame at `time` for every subscriber: evaluated and encoded once, the same
  /// bytes appended to each subscriber's connection. A session that stands still takes the
  /// stream off the frame clock. `time` is before the session's end (``FrameClock`` renders
  /// nothing at or after it: the session's completion sends the final frame).
  ///
  /// - Parameter held: When the frame clock renders ahead: each subscriber's output is held
  ///   there until the deadline.
  func tick(at time: Double, holding held: HeldOutput? = nil) {
    // One strong reference to the session for the whole frame: each use of the unowned one
    // takes its own.
    let session = self.session
    guard !session.isCompleted else { return }
    lastFrameTime = time
    let sessionID = session.id
    session.render(seq: seq, progress: session.progress(at: time), t: time - session.startTime) {
      bytes in
      for subscription in subscribers {
        guard let client = subscription.client else { continue }
        held?.hold(client)
        client.sendFrame(bytes, subscription: subscription, session: sessionID)
      }
    }
    seq += 1
    if !session.isMoving { frameClocks.remove(self) }
  }

  /// Sends the final frame at `progress` and `complete` to every subscriber, at once (with
  /// any frames a subscriber's connection holds for a deadline, a little early), then ends.
  func finish(progress: Double, t: Double, finished: Bool) {
    frameClocks.remove(self)
    let finalSubscribers = subscribers
    subscribers = []
    guard !finalSubscribers.isEmpty else { return }
    let complete = WireMessage.complete(session: session.id, finished: finished)
    let sessionID = session.id
    session.render(seq: seq, progress: progress, t: t) { bytes in
      for subscription in finalSubscribers {
        subscription.client?.sendFinal(
          frame: bytes, complete: complete, subscription: subscription, session: sessionID)
      }
    }
    seq += 1
    for subscription in finalSubscribers {
      subscription.client?.flushNow()
      subscription.streamFinished(self)
    }
  }
}

@available(*, unavailable) extension FrameStream: Sendable {}
