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
///
/// Delta subscribers share the stream's one ``FrameDeltaEncoder``, which encodes each frame
/// against the stream's previous one, once per tick while the stream has any (docs/protocol.md,
/// "Delta frames"). One that must start afresh (it joined, asked `resync`, or had a frame
/// coalesced) gets the tick's key frame instead: the full line with `"key":true`, written
/// once per tick that needs it.
final class FrameStream {
  /// The session the frames show; it owns its streams, and a stream leaves the frame clock
  /// and its subscribers before its session lets go of it. Unsafe-unowned because it is read
  /// for every frame, which must not cost reference counting.
  unowned(unsafe) let session: Session
  let fps: Double
  private(set) var subscribers: [Subscription] = []
  /// Per subscriber (same index), whether a delta subscriber's next frame must be a key frame.
  private var needsKeyFrame: [Bool] = []
  /// The number of delta subscribers.
  private var deltaSubscribers = 0
  private var deltaEncoder: FrameDeltaEncoder?
  private var keyWriter = KeyFrameWriter()
  private let frameClocks: FrameClocks
  private var seq = 0
  /// The time the last frame showed; nil before the first. A frame clock's tick renders a
  /// stream only at grid times after it (a stream joins the grid at the next deadline).
  private(set) var lastFrameTime: Double?
  /// The frame clock the stream ticks on, while it is on one (kept by ``FrameClock``, so that
  /// a tick asks a stream rather than searching the clock's list, and so that the stream
  /// leaves the very clock it is on: ``FrameClocks`` may by then hold another for its rate).
  var tickingClock: FrameClock?
  /// True while the stream ticks on a frame clock.
  var isOnFrameClock: Bool { tickingClock != nil }

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
    needsKeyFrame.append(subscription.encoding == .delta)
    if subscription.encoding == .delta {
      deltaSubscribers += 1
      if deltaEncoder == nil {
        deltaEncoder = FrameDeltaEncoder(animatedFields: session.animatedFields)
      }
    }
    if !isFirst, session.isMoving, seq > 0, lastFrameTime == now {
      // The same frame again (same seq, same instant), rendered for this subscriber alone:
      // rarer than keeping a copy of every frame's bytes.
      resend(to: subscribers.count - 1)
      return
    }
    if isFirst || !session.isMoving { sessionChanged(at: now) }
  }

  /// Removes a subscriber; the last one leaving stops the stream.
  func detach(_ subscription: Subscription) {
    guard let index = subscribers.firstIndex(where: { $0 === subscription }) else { return }
    subscribers.remove(at: index)
    needsKeyFrame.remove(at: index)
    if subscription.encoding == .delta { deltaSubscribers -= 1 }
    if subscribers.isEmpty { session.streamBecameEmpty(self) }
  }

  /// Sends the stream's latest frame again to `subscription`, as a key frame when it is a
  /// delta subscriber (`resync`); nothing before the stream's first frame, which is a key frame
  /// anyway.
  func sendKeyFrame(to subscription: Subscription) {
    guard let index = subscribers.firstIndex(where: { $0 === subscription }) else { return }
    needsKeyFrame[index] = subscription.encoding == .delta
    guard seq > 0, lastFrameTime != nil, !session.isCompleted else { return }
    resend(to: index)
  }

  /// Renders the frame last sent (same seq, same instant) again for subscriber `index` alone.
  private func resend(to index: Int) {
    guard let time = lastFrameTime else { return }
    let session = self.session
    let subscription = subscribers[index]
    guard let client = subscription.client else { return }
    let sessionID = session.id
    session.render(
      seq: seq - 1, progress: session.progress(at: time), t: time - session.startTime
    ) { bytes in
      guard subscription.encoding == .delta else {
        return client.sendFrame(bytes, subscription: subscription, session: sessionID)
      }
      // The stream's encoder already holds this frame: the next delta follows on from it.
      needsKeyFrame[index] = true
      deliverDelta(to: index, client: client, full: bytes, delta: nil, session: sessionID)
    }
  }

  /// Sends subscriber `index` (a delta subscriber) its frame: the `delta` line, or the key
  /// frame made from `full` when it must start afresh or the delta is nil; a frame the slow-
  /// subscriber policy coalesces is kept as a key frame, and the next one is a key frame too.
  private func deliverDelta(
    to index: Int, client: Client, full: UnsafeRawBufferPointer, delta: UnsafeRawBufferPointer?,
    session sessionID: String
  ) {
    let subscription = subscribers[index]
    switch client.admitFrame(subscription: subscription, session: sessionID) {
    case .write:
      if !needsKeyFrame[index], let delta { return client.writeFrame(delta) }
      keyWriter.keyFrame(fromFull: full) { client.writeFrame($0) }
      needsKeyFrame[index] = false
    case .coalesce:
      keyWriter.keyFrame(fromFull: full) {
        client.coalesceFrame($0, subscription: subscription, session: sessionID)
      }
      needsKeyFrame[index] = true
    case .closed:
      break
    }
  }

  /// The session changed, or the stream must show it now: renders a frame of its current
  /// state at once, then ticks on the frame clock while the session moves.
  func sessionChanged(at now: Double) {
    guard !subscribers.isEmpty, !session.isCompleted else { return }
    tick(at: now)
    // The frame answers a request: it leaves now, not behind the rest of the iteration.
    for subscription in subscribers { subscription.client?.flushNow() }
    // Sending can close a subscriber's client (a write fails, the slow-subscriber rule drops
    // it); with the last one the stream has left its session, and must not tick on its own.
    if session.isMoving, !subscribers.isEmpty, !session.isCompleted { frameClocks.add(self) }
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
    let frameSeq = seq
    session.render(seq: seq, progress: session.progress(at: time), t: time - session.startTime) {
      bytes, frame in
      guard deltaSubscribers > 0 else {
        for subscription in subscribers {
          guard let client = subscription.client else { continue }
          held?.hold(client)
          client.sendFrame(bytes, subscription: subscription, session: sessionID)
        }
        return
      }
      // Encoded every tick while there are delta subscribers, so each delta follows on from
      // the frame before it.
      deltaEncoder?.encode(session: sessionID, seq: frameSeq, frame: frame) { delta in
        for index in subscribers.indices {
          let subscription = subscribers[index]
          guard let client = subscription.client else { continue }
          held?.hold(client)
          if subscription.encoding == .delta {
            deliverDelta(to: index, client: client, full: bytes, delta: delta, session: sessionID)
          } else {
            client.sendFrame(bytes, subscription: subscription, session: sessionID)
          }
        }
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
    let finalNeedsKey = needsKeyFrame
    subscribers = []
    needsKeyFrame = []
    guard !finalSubscribers.isEmpty else { return }
    let complete = WireMessage.complete(session: session.id, finished: finished)
    let sessionID = session.id
    let frameSeq = seq
    let hasDelta = deltaSubscribers > 0
    deltaSubscribers = 0
    session.render(seq: seq, progress: progress, t: t) { bytes, frame in
      guard hasDelta else {
        for subscription in finalSubscribers {
          subscription.client?.sendFinal(
            frame: bytes, complete: complete, subscription: subscription, session: sessionID)
        }
        return
      }
      deltaEncoder?.encode(session: sessionID, seq: frameSeq, frame: frame) { delta in
        for (index, subscription) in finalSubscribers.enumerated() {
          guard let client = subscription.client else { continue }
          guard subscription.encoding == .delta else {
            client.sendFinal(
              frame: bytes, complete: complete, subscription: subscription, session: sessionID)
            continue
          }
          // A final frame is never coalesced: after a dropped frame it is a key frame.
          if finalNeedsKey[index]
            || client.hasPendingFrame(subscription: subscription, session: sessionID)
          {
            keyWriter.keyFrame(fromFull: bytes) {
              client.sendFinal(
                frame: $0, complete: complete, subscription: subscription, session: sessionID)
            }
          } else {
            client.sendFinal(
              frame: delta, complete: complete, subscription: subscription, session: sessionID)
          }
        }
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
