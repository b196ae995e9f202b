import FrameStreaming
import TransitionKit
import TransitionWire

/// One client's subscription to one session or to every session (`*`), at its own frame rate
/// and clock.
///
/// - `wall`: the subscription joins the session's shared ``FrameStream`` of its pacing: its
///   rate's grid, or its display's timing (``display``), which `presented` reports and the
///   `display` op move (``retime(to:at:)``).
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
  /// The display a wall subscription is paced by; nil on its rate's grid.
  private(set) var display: DisplayTiming?
  /// What its `presented` reports taught, while it is display-paced.
  private(set) var phaseLock: DisplayPhaseLock?
  /// Its display-paced frames lately sent, for `presented`.
  private var sentFrames = SentFrameLog()
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
    display: DisplayTiming? = nil, client: Client
  ) {
    self.display = display
    phaseLock = display.map { DisplayPhaseLock(requestedLead: $0.lead) }
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
      let stream = session.stream(pacing: pacing, geometry: geometry)
      streams.append(stream)
      stream.attach(self, at: now)
    case .virtual:
      let cursor = VirtualCursor(
        session: session, fps: fps, encoding: encoding, geometry: geometry)
      readings.append(VirtualReading(session: session, cursor: cursor))
      session.virtualReaders += 1
    }
  }

  /// How its wall frames are timed.
  var pacing: FramePacing { display.map { .display($0) } ?? .grid(fps: fps) }

  /// Paces its wall frames by `timing` from monotonic `now` on (the `display` op, or what
  /// `presented` reports taught): it leaves each session's stream for the stream of the new
  /// timing, counting `seq` on from where it was: its next frame shows the first vblank of the
  /// new timing after now and more than half a period after the frame last sent (which was
  /// sent a lead ahead of its vblank). The lead of a `requested` timing (the `display` op)
  /// becomes the least the phase lock sets. The new streams' first frames leave after the
  /// vblank the last frame sent shows (``FrameStream/attach(_:movingFrom:at:)``).
  func retime(to timing: DisplayTiming, requested: Bool, at now: Double) {
    guard clock == .wall else { return }
    display = timing
    if requested || phaseLock == nil {
      phaseLock = DisplayPhaseLock(requestedLead: timing.lead)
    }
    let followed = streams
    streams = []
    for old in followed {
      // The streams it follows show the core's sessions.
      guard let session = old.session as? Session else { continue }
      let shown = old.lastFrameTime
      let next = session.stream(
        pacing: .display(timing), geometry: geometry, firstSeq: old.nextSeq)
      // Left after the new stream exists: the old one, losing its last subscriber, is
      // forgotten by its session.
      old.detach(self)
      streams.append(next)
      // The frame last sent, a lead ahead, keeps its vblank: the next is the first vblank of
      // the new timing more than half a period after it, sent after it.
      next.attach(self, movingFrom: shown, at: now)
    }
  }

  /// Records that display-paced frame `seq` of `session`, showing `vblank` (nil for a final
  /// frame), was written to its client.
  func frameSent(session: String, seq: Int, vblank: Double?) {
    sentFrames.sent(session: session, seq: seq, vblank: vblank)
  }

  /// Takes a `presented` report: the phase lock learns from it.
  ///
  /// - Returns: The timing to pace by from now on when the lock moved its vblanks or its
  ///   lead (``retime(to:requested:at:)`` it, after the reply); nil otherwise.
  /// - Throws: `bad_request` when the subscription is not display-paced, or the frame was
  ///   never sent to it (or not among its last ``SentFrameLog/capacity``), or was reported
  ///   already.
  func report(_ report: PresentationReport) throws(WireError) -> DisplayTiming? {
    guard let display, var lock = phaseLock else {
      throw WireError(
        .badRequest,
        "subscription \(id) is not display-paced: presented is for a subscription with display")
    }
    switch sentFrames.report(session: report.session, seq: report.seq) {
    case .failure(.neverSent):
      throw WireError(
        .badRequest,
        "frame \(report.seq) of session \(report.session) was not sent to subscription \(id) "
          + "(or not among its last \(SentFrameLog.capacity) frames)")
    case .failure(.alreadyReported):
      throw WireError(
        .badRequest,
        "frame \(report.seq) of session \(report.session) was reported already")
    case .success(nil):
      return nil
    case .success(let vblank?):
      let next = lock.report(vblank: vblank, presented: report.time, timing: display)
      phaseLock = lock
      return next == display ? nil : next
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
