import FrameStreaming
import TransitionKit
import TransitionWire

/// One client's subscription to one session or to every session (`*`), at its own frame rate
/// and clock.
///
/// - `wall`: the subscription joins the session's shared ``FrameStream`` at its rate.
/// - `virtual`: it keeps a ``VirtualCursor`` per session and produces frames on demand, as
///   fast as its client drains (``Client`` pumps it).
///
/// A subscription to one session ends after that session's `complete`; a `*` subscription
/// lasts until `unsubscribe` or disconnect.
final class Subscription: FrameSubscriber {
  /// What a subscription follows.
  enum Target: Equatable {
    case session(String)
    case every
  }

  /// How frames are timed.
  enum Clock: String, Sendable {
    /// Paced by the server's monotonic clock; frames shared with the session's other
    /// subscribers at the same rate.
    case wall
    /// Every frame at t = k / fps, as fast as the subscriber reads.
    case virtual
  }

  let id: Int
  let target: Target
  let fps: Double
  let clock: Clock
  /// Whether `begin` events carry the session's timeline (docs/protocol.md, "begin").
  let includesTimeline: Bool
  /// How its frames are written: full, or deltas after a key frame.
  let encoding: FrameEncoding
  /// What its frames' layers carry beside their fields (`geometry`).
  let geometry: FrameGeometry
  /// The client holding the subscription, until the subscription ends or is cancelled (the
  /// client then drops it too). Strong, not weak: a weak reference would give every client a
  /// side table, and each frame's retain and release of it would take the slow path.
  private(set) var client: Client?
  private(set) var streams: [FrameStream] = []
  /// A virtual reading: the session read, and where the reading is in it.
  private struct VirtualReading {
    let session: Session
    let cursor: VirtualCursor
  }
  private var readings: [VirtualReading] = []
  private var nextCursor = 0

  init(
    id: Int, target: Target, fps: Double, clock: Clock, includesTimeline: Bool = false,
    encoding: FrameEncoding = .full, geometry: FrameGeometry = .none,
    client: Client
  ) {
    self.id = id
    self.target = target
    self.fps = fps
    self.clock = clock
    self.includesTimeline = includesTimeline
    self.encoding = encoding
    self.geometry = geometry
    self.client = client
  }

  /// True while a virtual subscription has frames left to produce.
  var hasVirtualFrames: Bool { !readings.isEmpty }

  /// Where its wall-clock frames go: its client, until the subscription ends.
  var sink: (any FrameSink)? { client }

  /// Starts receiving `session`'s frames at monotonic `now`.
  func follow(_ session: Session, at now: Double) {
    switch clock {
    case .wall:
      let stream = session.stream(fps: fps, geometry: geometry)
      streams.append(stream)
      stream.attach(self, at: now)
    case .virtual:
      let cursor = VirtualCursor(
        session: session, fps: fps, encoding: encoding, geometry: geometry)
      readings.append(VirtualReading(session: session, cursor: cursor))
      session.virtualReaders += 1
    }
  }

  /// The wall stream of the session with id `session` it follows, if any.
  func stream(of session: String) -> FrameStream? {
    streams.first { $0.session.id == session }
  }

  /// Has the next frame of every session it follows be a key frame (`resync`): a wall
  /// stream sends its latest frame again at once, as a key frame; a virtual reading makes its
  /// next frame one.
  func resync(at now: Double) {
    for stream in streams { stream.sendLatestFrame(to: self) }
    for reading in readings { reading.cursor.needsKeyFrame = true }
  }

  /// A stream this subscription followed has sent its final frame and `complete`.
  func streamFinished(_ stream: FrameStream) {
    streams.removeAll { $0 === stream }
    endIfDone()
  }

  /// Stops following every session (unsubscribe or disconnect).
  func cancel() {
    let followed = streams
    streams = []
    for stream in followed { stream.detach(self) }
    for reading in readings { reading.session.virtualReaders -= 1 }
    readings = []
    client = nil
  }

  /// Writes one virtual frame (or a `complete` after a session's last frame) to `client`,
  /// taking the sessions in turn.
  ///
  /// - Returns: False when there was nothing left to write.
  func pumpVirtual(into client: Client) -> Bool {
    guard !readings.isEmpty else { return false }
    if nextCursor >= readings.count { nextCursor = 0 }
    let reading = readings[nextCursor]
    if reading.cursor.nextFrame({ client.sendVirtualFrame($0) }) {
      nextCursor += 1
    } else {
      readings.remove(at: nextCursor)
      reading.session.virtualReaders -= 1
      let interruptedBy = reading.session.interruptedBy
      client.send(
        WireMessage.complete(
          session: reading.session.id, finished: interruptedBy == nil,
          interruptedBy: interruptedBy))
      endIfDone()
    }
    return true
  }

  private func endIfDone() {
    guard case .session = target, streams.isEmpty, readings.isEmpty else { return }
    client?.subscriptionEnded(self)
    client = nil
  }
}

@available(*, unavailable) extension Subscription: Sendable {}
