import EventLoop
import TransitionKit
import TransitionWire

/// The wall-clock frames of one session at one frame rate, shared by every subscriber at that
/// rate: each tick evaluates the timeline once, encodes the frame once into a reused buffer,
/// and hands the same bytes to every subscriber.
///
/// The stream's repeating timer runs only while it has subscribers and the session moves.
/// While the session stands still (paused, or waiting for interaction) the stream sends one
/// frame for the current state and then idles until a control op changes the session.
/// `seq` counts the frames this stream produced, from 0.
final class FrameStream {
  /// The session the frames show. The session owns its streams.
  private weak var session: Session?
  let fps: Double
  private(set) var subscribers: [Subscription] = []
  private let loop: EventLoop
  private var seq = 0
  private var frame = Frame()
  private var encoder = FrameEncoder()
  private var timer: LoopTimer?
  /// The progress of the last frame sent while the session stood still.
  private var stillProgress: Double?

  init(session: Session, fps: Double, loop: EventLoop) {
    self.session = session
    self.fps = fps
    self.loop = loop
  }

  /// Adds a subscriber; it receives frames from the next tick on.
  func attach(_ subscription: Subscription) {
    subscribers.append(subscription)
    stillProgress = nil
    wake()
  }

  /// Removes a subscriber; the last one leaving stops the stream.
  func detach(_ subscription: Subscription) {
    subscribers.removeAll { $0 === subscription }
    if subscribers.isEmpty { session?.streamBecameEmpty(self) }
  }

  /// The session changed (a control op): send a frame for its new state.
  func sessionChanged() {
    stillProgress = nil
    wake()
  }

  /// Stops ticking.
  func stop() {
    timer?.cancel()
  }

  /// Sends the final frame at `progress` and `complete` to every subscriber, then ends.
  func finish(progress: Double, t: Double, finished: Bool) {
    stop()
    let finalSubscribers = subscribers
    subscribers = []
    guard !finalSubscribers.isEmpty, let session else { return }
    session.evaluator.evaluate(progress: progress, time: t, into: &frame)
    let bytes = encoder.encode(session: session.id, seq: seq, frame: frame)
    seq += 1
    let complete = WireMessage.complete(session: session.id, finished: finished)
    for subscription in finalSubscribers {
      subscription.client?.sendFinal(
        frame: bytes, complete: complete, subscription: subscription, session: session.id)
      subscription.streamFinished(self)
    }
  }

  private func wake() {
    guard !subscribers.isEmpty, let session, !session.isCompleted else { return }
    if timer == nil {
      timer = try? LoopTimer(loop: loop) { [weak self] in self?.tick() }
    }
    guard let timer, !timer.isScheduled else { return }
    timer.scheduleRepeating(every: 1 / fps, startingAt: loop.now)
  }

  private func tick() {
    guard let session else {
      stop()
      return
    }
    let now = loop.now
    // Completing sends the final frame through finish(progress:t:finished:).
    if session.advance(to: now) { return }
    let progress = session.progress(at: now)
    if session.isMoving {
      stillProgress = nil
    } else {
      if stillProgress == progress {
        timer?.cancel()
        return
      }
      stillProgress = progress
    }
    session.evaluator.evaluate(progress: progress, time: now - session.startTime, into: &frame)
    let bytes = encoder.encode(session: session.id, seq: seq, frame: frame)
    seq += 1
    for subscription in subscribers {
      subscription.client?.sendFrame(bytes, subscription: subscription, session: session.id)
    }
  }
}
