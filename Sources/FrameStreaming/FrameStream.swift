import TransitionKit
import TransitionWire

/// The wall-clock frames of one session at one pacing (a frame rate, or a display's timing),
/// shared by every subscriber paced alike: each frame is rendered once and the same bytes go to every subscriber
/// (docs/architecture.md, "The frame contract").
///
/// A stream renders a frame at once when it gains its first subscriber, when a subscriber
/// joins while the session stands still, and when the session changes (a control op); while
/// the session moves on its own, the stream ticks on the ``FrameClock`` of its pacing. A
/// display-paced stream's frames all show a vblank: a frame rendered at once shows the first
/// vblank at or after the instant (``FramePacing/showTime(at:)``), and each frame sent to a
/// subscriber is logged with its vblank for its `presented` reports
/// (``Subscription/frameSent(session:seq:vblank:)``). While the
/// session stands still (paused, or waiting for interaction) the stream is off the clock, so
/// it sends one frame per change and nothing in between. `seq` counts the frames this stream
/// produced, from 0.
///
/// Delta subscribers share the stream's one ``FrameDeltaEncoder``, which encodes each frame
/// rendered against the one rendered before, while the stream has any (docs/protocol.md,
/// "Delta frames"). One that must start afresh (it joined, asked `resync`, or had a frame
/// coalesced) gets the tick's key frame instead: the full line with `"key":true`. A frame
/// that only deltas are made of is evaluated and delta-encoded, its full line never written.
///
/// A subscriber whose connection is over the slow-subscriber limit is not written to; it is
/// owed the stream's newest frame, which is rendered again for it when its connection drains
/// (``FrameSink``). A tick that no subscriber can take renders nothing.
///
/// The stream sees its session as a ``StreamedSession``, each subscriber as a
/// ``FrameSubscriber`` and its connection as a ``FrameSink``: nothing else of the server.
public final class FrameStream {
  /// One subscriber of the stream, and what the stream remembers of it between frames.
  /// A frame reads only the member: its sink, id and encoding are kept here, not looked up
  /// through the subscriber.
  private final class Member {
    let subscriber: any FrameSubscriber
    /// The subscriber's id, as its sink knows it.
    let subscriberID: Int
    /// The subscriber's sink (a member leaves the stream when its subscription ends).
    let sink: any FrameSink
    /// Whether it takes delta frames.
    let isDelta: Bool
    /// A delta subscriber's next frame must be a key frame: it has not been sent the frame
    /// the stream's delta encoder holds (it joined, asked `resync`, or missed a frame).
    var needsKeyFrame: Bool
    /// Whether the frame being rendered is written to it, decided before the render.
    var takesFrame = false
    /// The line it gets of the next frame (``FrameSync/line(isDelta:needsKeyFrame:)``).
    var line: FrameSync.Line { FrameSync.line(isDelta: isDelta, needsKeyFrame: needsKeyFrame) }
    #if DEBUG
      /// The `seq` of the last frame written to it (debug builds check the sync state).
      var lastSeq: Int?
    #endif

    /// It was written `line` of frame `seq`: checked against `sync` in debug builds
    /// (``FrameSync/checkLine(_:seq:lastReceived:)``), after which it is in step.
    @inline(__always)
    func received(_ line: FrameSync.Line, seq: Int, sync: FrameSync) {
      #if DEBUG
        sync.checkLine(line, seq: seq, lastReceived: lastSeq)
        lastSeq = seq
      #endif
      needsKeyFrame = false
    }

    init(_ subscriber: any FrameSubscriber, sink: any FrameSink) {
      self.subscriber = subscriber
      self.sink = sink
      subscriberID = subscriber.id
      isDelta = subscriber.encoding == .delta
      needsKeyFrame = isDelta
    }
  }

  /// The session the frames show; it owns its streams, and a stream leaves the frame clock
  /// and its subscribers before its session lets go of it. Unowned, not unowned(unsafe): the
  /// check costs a tick nothing measurable (`FrameStream.tick` of 200 updates in
  /// `transition-bench stages`, counted by callgrind: 6,374,115 instructions unsafe-unowned,
  /// 6,375,589 unowned, +0.02 %).
  public unowned let session: any StreamedSession
  #if DEBUG
    /// The same session, weakly: debug builds check that it is alive whenever the stream
    /// reads it (before the unowned reference would trap).
    private weak var checkedSession: (any StreamedSession)?
  #endif
  /// How its frames are timed.
  public let pacing: FramePacing
  /// Its frames a second.
  public var fps: Double { pacing.fps }
  /// Whether its frames are paced by a display (each sent one logged for `presented`).
  private let isDisplayPaced: Bool
  /// What the stream's layers carry beside their fields.
  public let geometry: FrameGeometry
  /// The stream's full lines when its layers carry their projected geometry (nil: the
  /// session renderer's lines, shared by its plain streams).
  private var fullEncoder: FrameEncoder?
  /// The subscribers, in the order they joined.
  private var members: [Member] = []
  /// The number of delta subscribers.
  private var deltaSubscribers = 0
  private let frameClocks: FrameClocks
  private var seq = 0
  /// The time the last frame showed; nil before the first. A frame clock's tick renders a
  /// stream only at grid times after it (a stream joins the grid at the next deadline).
  public private(set) var lastFrameTime: Double?
  /// Before its first frame, the instant a frame clock's tick renders it only after (a
  /// subscriber moved here from another timing: ``attach(_:movingFrom:at:)``).
  private(set) var showsAfter: Double?
  /// The frame clock the stream ticks on, while it is on one (kept by ``FrameClock``, so that
  /// a tick asks a stream rather than searching the clock's list, and so that the stream
  /// leaves the very clock it is on: ``FrameClocks`` may by then hold another for its rate).
  var tickingClock: FrameClock?
  /// The stream's place in its frame clock's list, while it is on one (kept by ``FrameClock``).
  var clockSlot = 0
  // The delta encoding's state comes after what every tick reads (it is read only while the
  // stream has delta subscribers), so that a tick touches the object's first lines.
  private var deltaEncoder: FrameDeltaEncoder?
  /// Which frame the delta encoder holds, and the choice of each frame's lines.
  private var sync = FrameSync()
  private var keyWriter = KeyFrameWriter()
  /// True while the stream ticks on a frame clock.
  var isOnFrameClock: Bool { tickingClock != nil }
  /// The number of subscribers.
  public var subscriberCount: Int { members.count }
  /// The `seq` of the stream's next frame.
  public var nextSeq: Int { seq }

  /// A stream of `session`'s frames paced by `pacing`, its first frame numbered `firstSeq`
  /// (a subscriber moving from another stream of the session keeps counting on).
  public init(
    session: any StreamedSession, pacing: FramePacing, geometry: FrameGeometry = .none,
    frameClocks: FrameClocks, firstSeq: Int = 0
  ) {
    self.session = session
    self.pacing = pacing
    isDisplayPaced = pacing.display != nil
    seq = firstSeq
    self.geometry = geometry
    fullEncoder = geometry == .none ? nil : FrameEncoder(geometry: geometry)
    self.frameClocks = frameClocks
    #if DEBUG
      checkedSession = session
    #endif
  }

  /// Checks, in debug builds, that the session the stream holds unowned is alive.
  @inline(__always)
  private func checkSessionAlive() {
    #if DEBUG
      precondition(checkedSession != nil, "a frame stream outlived its session")
    #endif
  }

  /// Adds a subscriber. One joining a moving session in the instant of the last frame gets
  /// that frame (so every subscriber of a session that has just begun sees its first frame,
  /// seq 0); otherwise the first one, or one joining a session that stands still, gets a
  /// frame at once (and so do the others), and any other joins at the next tick.
  public func attach(_ subscriber: any FrameSubscriber, at now: Double) {
    guard let member = addMember(subscriber) else { return }
    join(member, at: now, leavesAtOnce: true)
  }

  /// Adds a subscriber moving to this display-paced stream from its session's stream of
  /// another timing, whose last frame there shows the vblank at `shown`
  /// (``FrameStream/lastFrameTime``; nil when it was sent none). Its next frame shows the
  /// first vblank of this timing more than half a period after `shown` and after `now`, and
  /// leaves after `shown`: a frame sent before then would reach the display in time for
  /// `shown`'s vblank and replace the frame that shows it. So the first subscriber of a moving
  /// session gets no frame at once: the stream goes on its clock, which renders the frame
  /// then (``FrameClock/add(_:sendsAfter:)``). Otherwise it joins as ``attach(_:at:)`` has it,
  /// its frames leaving with the rest of the loop iteration's output (a read of many `display`
  /// ops, their replies and their frames leave in one write).
  public func attach(_ subscriber: any FrameSubscriber, movingFrom shown: Double?, at now: Double) {
    guard let display = pacing.display else {
      preconditionFailure("a subscriber moves only to a display-paced stream")
    }
    let isFirst = members.isEmpty
    guard let member = addMember(subscriber) else { return }
    let after = max(now, shown.map { $0 + display.period / 2 } ?? now)
    guard let shown, isFirst, session.isMoving, !session.isCompleted else {
      return join(member, at: after, leavesAtOnce: false)
    }
    showsAfter = after
    frameClocks.add(self, sendsAfter: shown)
  }

  /// Gives `member`, just added, its first frame: the last one again when it joins a moving
  /// session in that frame's instant; a frame at once, for every member, when it is the first
  /// or the session stands still; otherwise the next tick's.
  private func join(_ member: Member, at now: Double, leavesAtOnce: Bool) {
    if members.count > 1, session.isMoving, seq > 0, lastFrameTime == pacing.showTime(at: now) {
      // The same frame again (same seq, same instant), rendered for this subscriber alone:
      // rarer than keeping a copy of every frame's bytes.
      return resend(to: member)
    }
    if members.count == 1 || !session.isMoving {
      sessionChanged(at: now, leavesAtOnce: leavesAtOnce)
    }
  }

  /// Adds `subscriber` to the members, the delta encoder made for the first delta one; nil
  /// when it has no sink (its subscription has ended).
  private func addMember(_ subscriber: any FrameSubscriber) -> Member? {
    guard let sink = subscriber.sink else { return nil }
    let member = Member(subscriber, sink: sink)
    members.append(member)
    if member.isDelta {
      deltaSubscribers += 1
      if deltaEncoder == nil {
        deltaEncoder =
          geometry == .none
          ? FrameDeltaEncoder(animatedFields: session.animatedFields)
          : FrameDeltaEncoder(geometry: geometry)
      }
    }
    return member
  }

  /// Removes a subscriber; the last one leaving stops the stream.
  public func detach(_ subscriber: any FrameSubscriber) {
    guard let index = members.firstIndex(where: { $0.subscriber === subscriber }) else {
      return
    }
    let member = members.remove(at: index)
    if member.isDelta { deltaSubscribers -= 1 }
    if members.isEmpty { session.streamBecameEmpty(self) }
  }

  /// Sends the stream's latest frame again to `subscriber` (same seq, same instant), as a
  /// key frame when it is a delta subscriber: for `resync`, and for a subscriber owed the
  /// frame its connection could not take (when its sink drains). Nothing before the
  /// stream's first frame, which is a key frame anyway, or after its session completed.
  public func sendLatestFrame(to subscriber: any FrameSubscriber) {
    guard let member = members.first(where: { $0.subscriber === subscriber }) else {
      return
    }
    member.needsKeyFrame = member.isDelta
    guard seq > 0, lastFrameTime != nil, !session.isCompleted else { return }
    resend(to: member)
  }

  /// Renders the frame last sent (same seq, same instant) again for `member` alone, through
  /// the slow-subscriber policy (a subscriber that cannot take it now is owed it): the full
  /// line, or a key frame, after which a delta subscriber is in step (the encoder is brought
  /// to this frame when it does not hold it: it was rendered for full subscribers only, or
  /// not at all, so no delta subscriber is in step with the encoder).
  private func resend(to member: Member) {
    guard let time = lastFrameTime else { return }
    checkSessionAlive()
    let sink = member.sink
    let session = self.session
    guard admit(member, session: session.id) else { return }
    let frameSeq = seq - 1
    let line = member.line
    let plan = sync.decide(seq: frameSeq, takers: .init(line), keepsEncoderInStep: false)
    frameClocks.charging(session.ownerUID) {
      produce(plan, seq: frameSeq, at: time) { lines in
        lines.write(line, keyWriter: &keyWriter) { sink.writeFrame($0) }
        member.received(line, seq: frameSeq, sync: lines.sync)
        if isDisplayPaced {
          member.subscriber.frameSent(session: session.id, seq: frameSeq, vblank: time)
        }
      }
    }
  }

  /// Makes the lines `plan` asks of frame `seq`, showing the session at monotonic `time`,
  /// and counts the frame rendered.
  private func produce(
    _ plan: FrameSync.Plan, seq: Int, at time: Double, _ body: (FrameLines) -> Void
  ) {
    guard !plan.isEmpty else { return }
    let session = self.session
    frameClocks.stats.framesRendered += 1
    session.produce(
      plan, seq: seq, progress: session.progress(at: time), t: time - session.startTime,
      fullEncoder: &fullEncoder, encoder: &deltaEncoder, sync: &sync, body)
  }

  /// Applies the slow-subscriber policy to `member`'s next frame: true when it is to be
  /// written now; otherwise its sink is owed the stream's latest frame (rendered when it
  /// drains, after which a delta subscriber starts again from a key frame), or it is closed.
  @inline(__always)
  private func admit(_ member: Member, session sessionID: String) -> Bool {
    switch member.sink.admitFrame(subscriber: member.subscriberID, session: sessionID) {
    case .write:
      return true
    case .coalesce:
      member.needsKeyFrame = member.isDelta
      return false
    case .closed:
      return false
    }
  }

  /// The session changed, or the stream must show it now: renders a frame of its current
  /// state at once, then ticks on the frame clock while the session moves.
  ///
  /// - Parameter leavesAtOnce: Whether the frame is sent now, not behind the rest of the loop
  ///   iteration (``attach(_:movingFrom:at:)``).
  public func sessionChanged(at now: Double, leavesAtOnce: Bool = true) {
    guard !members.isEmpty, !session.isCompleted else { return }
    tick(at: pacing.showTime(at: now))
    // The frame answers a request: it leaves now, not behind the rest of the iteration.
    if leavesAtOnce {
      for member in members { member.sink.flushNow() }
    }
    // Sending can close a subscriber's client (a write fails, the slow-subscriber rule drops
    // it); with the last one the stream has left its session, and must not tick on its own.
    if session.isMoving, !members.isEmpty, !session.isCompleted {
      frameClocks.add(self, sendsAfter: nil)
    }
  }

  /// The frame at `time` for every subscriber: evaluated and encoded once, the same bytes
  /// appended to each subscriber's connection that can take them now. Which ones can is
  /// decided first, by the slow-subscriber policy: a frame that none can take is not
  /// rendered at all (each of them is owed the stream's latest frame instead, rendered when
  /// its connection drains), so readers that do not read cost no rendering. A session that
  /// stands still takes the stream off the frame clock. `time` is before the session's end
  /// (``FrameClock`` renders nothing at or after it: the session's completion sends the
  /// final frame).
  ///
  /// - Parameter presenter: When the frame clock renders ahead: each subscriber's output is
  ///   held there until the deadline.
  func tick(at time: Double, holding presenter: FramePresenter? = nil) {
    checkSessionAlive()
    // One strong reference to the session for the whole frame: each use of the unowned one
    // takes its own.
    let session = self.session
    guard !session.isCompleted else { return }
    lastFrameTime = time
    showsAfter = nil
    let sessionID = session.id
    let frameSeq = seq
    seq += 1
    // A snapshot: a subscriber whose client closes while its frame is sent leaves `members`.
    let members = self.members
    var takers = FrameSync.Takers()
    for member in members {
      member.takesFrame = admit(member, session: sessionID)
      if member.takesFrame { takers.add(member.line) }
    }
    // Encoded at every frame rendered while there are delta subscribers, so each delta
    // follows on from the frame before it; a frame only deltas take has no full line.
    let plan = sync.decide(seq: frameSeq, takers: takers, keepsEncoderInStep: deltaSubscribers > 0)
    produce(plan, seq: frameSeq, at: time) { lines in
      deliver(to: members, holding: presenter) { member, sink in
        let line = member.line
        lines.write(line, keyWriter: &keyWriter) { sink.writeFrame($0) }
        member.received(line, seq: frameSeq, sync: lines.sync)
        if isDisplayPaced {
          member.subscriber.frameSent(session: sessionID, seq: frameSeq, vblank: time)
        }
      }
    }
    if !session.isMoving { frameClocks.remove(self) }
  }

  /// Has `write` write the frame to each of `members` that takes it (``Member/takesFrame``)
  /// and is still connected, its output held for the deadline when `presenter` is given.
  private func deliver(
    to members: [Member], holding presenter: FramePresenter?,
    _ write: (Member, any FrameSink) -> Void
  ) {
    for member in members where member.takesFrame {
      presenter?.hold(member.sink)
      write(member, member.sink)
    }
  }

  /// Sends the final frame at `progress` and `complete` to every subscriber, at once (with
  /// any frames a subscriber's connection holds for a deadline, a little early), then ends.
  public func finish(progress: Double, t: Double, finished: Bool) {
    checkSessionAlive()
    frameClocks.remove(self)
    let finalMembers = members
    members = []
    guard !finalMembers.isEmpty else { return }
    let complete = WireMessage.complete(
      session: session.id, finished: finished, interruptedBy: session.interruptedBy)
    let sessionID = session.id
    let frameSeq = seq
    let hasDelta = deltaSubscribers > 0
    deltaSubscribers = 0
    // A final frame is never coalesced: after a missed frame it is a key frame.
    var takers = FrameSync.Takers()
    for member in finalMembers { takers.add(member.line) }
    let plan = sync.decide(seq: frameSeq, takers: takers, keepsEncoderInStep: hasDelta)
    frameClocks.stats.framesRendered += 1
    session.produce(
      plan, seq: frameSeq, progress: progress, t: t, fullEncoder: &fullEncoder,
      encoder: &deltaEncoder, sync: &sync
    ) { lines in
      for member in finalMembers {
        let line = member.line
        lines.write(line, keyWriter: &keyWriter) {
          member.sink.sendFinal(
            frame: $0, complete: complete, subscriber: member.subscriberID, session: sessionID)
        }
        member.received(line, seq: frameSeq, sync: lines.sync)
        // The final frame shows the completion, not a vblank: reported, it teaches nothing.
        if isDisplayPaced {
          member.subscriber.frameSent(session: sessionID, seq: frameSeq, vblank: nil)
        }
      }
    }
    seq += 1
    for member in finalMembers {
      member.sink.flushNow()
      member.subscriber.streamFinished(self)
    }
  }
}

@available(*, unavailable) extension FrameStream: Sendable {}
