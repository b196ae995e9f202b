import FrameStreaming
import TransitionKit
import TransitionWire

/// One running transition: its context, the timeline its animator made, the clock that drives
/// it, its frame renderer and the wall-clock streams that carry it to subscribers.
///
/// A session runs on the server's monotonic clock from `begin`, whether or not anyone
/// watches: a one-shot timer at the clock's end time completes it, and is re-scheduled after
/// every control op, so nothing ticks for a session without subscribers. On completion every
/// wall-clock stream sends its final frame and `complete`, and ``onComplete`` removes the
/// session from the table. Virtual-clock readers keep the session object (and its timeline)
/// alive until they have read to the end.
final class Session: StreamedSession {
  /// How the session ended.
  struct Outcome: Equatable {
    /// True when it reached its end; false when cancelled.
    var finished: Bool
    /// The monotonic time it ended.
    var time: Double
    /// The linear progress it ended at.
    var progress: Double
    /// The session that interrupted it (docs/protocol.md, "Interruption"); nil otherwise.
    var interruptedBy: String?
  }

  // What every frame reads comes first, so that a frame touches the object's first lines
  // rather than lines all over it.
  let id: String
  /// The monotonic time of `begin`: frame `t` counts from here.
  let startTime: Double
  /// The uid of the peer that began the session, when known.
  let ownerUID: UInt32?
  private(set) var outcome: Outcome?
  /// The clock's progress line and end time, and whether a finger has touched the follower,
  /// kept as each changes: every frame asks, and reading the clock or the follower (a few
  /// hundred bytes each) would copy it.
  private var clockLine: TransitionClock.Line?
  private var clockEndTime: Double?
  private var isFollowingTouch = false
  private var renderer: FrameRenderer
  private(set) var clock: TransitionClock {
    didSet {
      clockLine = clock.line
      clockEndTime = clock.endTime
    }
  }
  /// Follows the finger when the timeline has a gesture; nil otherwise.
  private(set) var follower: GestureFollower? {
    didSet { isFollowingTouch = follower?.isTouched == true }
  }
  /// The length of the transition in seconds: the client's `duration` when it asked for one
  /// (keyframe times are relative, so a timeline plays at any length), else the timeline's.
  let duration: Double
  let context: TransitionContext
  /// The animator that made the timeline (after any fallback).
  let animatorName: String
  /// The timeline the animator made, for subscribers that ask for it in their `begin` event.
  let timeline: Timeline
  /// The number of layers of the timeline, including those the animator added.
  let layerCount: Int
  /// Whether the session began waiting for interaction (`interactive: true`).
  let interactive: Bool
  /// Whether the reduced form played (the reply's and the `begin` event's `motion`).
  var reducedMotion = false
  /// The session this one interrupted (the `begin` event's `interrupts`); nil otherwise.
  var interrupted: String?
  /// Seconds from the start until the handover's offset is zero (the `begin` event's
  /// `handover`), for a session that interrupted another; nil otherwise.
  var handoverLength: Double? { renderer.handover?.length }
  /// The peer that began the session.
  let ownerPeerID: UInt64
  private let clockSource: ServerClock
  private let frameClocks: FrameClocks
  /// The wall-clock frame streams, one per pacing and geometry.
  private(set) var streams: [StreamKey: FrameStream] = [:]

  /// What tells a session's wall-clock streams apart.
  struct StreamKey: Hashable {
    var pacing: FramePacing
    var geometry: FrameGeometry

    init(pacing: FramePacing, geometry: FrameGeometry) {
      self.pacing = pacing
      self.geometry = geometry
    }

    /// The key of a stream on the grid of `fps`.
    init(fps: Double, geometry: FrameGeometry) {
      self.init(pacing: .grid(fps: fps), geometry: geometry)
    }
  }
  /// Virtual-clock subscriptions still reading this session.
  var virtualReaders = 0
  private var completionTimer: (any ServerTimer)?
  /// Called once, when the session completes.
  var onComplete: ((Session) -> Void)?

  /// Creates a session whose clock starts now.
  ///
  /// - Parameters:
  ///   - start: The monotonic time its clock starts at, not later than now (a session that
  ///     interrupts another starts at the instant of the handover); nil for now.
  ///   - renderer: Of `timeline`'s frames for `id` (``CompiledTimelines``).
  ///   - duration: The length to play the timeline at; nil for the timeline's own.
  /// - Throws: `EngineError` when the duration cannot drive a clock.
  init(
    id: String, context: TransitionContext, animatorName: String, timeline: Timeline,
    renderer: FrameRenderer, duration: Double?, interactive: Bool, touch: Point? = nil,
    owner: Client, clock: ServerClock,
    frameClocks: FrameClocks, startTime start: Double? = nil
  ) throws(EngineError) {
    self.id = id
    self.duration = duration ?? timeline.duration
    self.context = context
    self.animatorName = animatorName
    self.layerCount = timeline.layers.count
    self.timeline = timeline
    self.interactive = interactive
    self.clockSource = clock
    self.frameClocks = frameClocks
    self.renderer = renderer
    self.ownerPeerID = owner.id
    self.ownerUID = owner.identity?.uid
    let now = start ?? clock.now
    startTime = now
    self.clock = try TransitionClock(
      duration: self.duration, interactive: interactive, at: now)
    clockLine = self.clock.line
    clockEndTime = self.clock.endTime
    follower = GestureFollower(renderer.evaluator)
    if interactive, let touch {
      // The grab, at progress 0: the clock stays where it is.
      _ = follower?.move(to: touch, progress: 0, evaluator: renderer.evaluator)
    }
    isFollowingTouch = follower?.isTouched == true
  }

  deinit {
    completionTimer?.cancel()
  }

  var operation: TransitionOperation { context.operation }
  /// Which form played: `reduced` or `full` (docs/protocol.md, "Reduced motion").
  var motionName: String { reducedMotion ? "reduced" : "full" }
  var isCompleted: Bool { outcome != nil }

  /// True while the clock moves on its own (running, finishing, cancelling).
  var isMoving: Bool { outcome == nil && clockEndTime != nil }

  /// The state name of the protocol (`running`, `paused`, `interactive`, `finishing`,
  /// `cancelling`, `completed`).
  var stateName: String { outcome == nil ? clock.state.rawValue : "completed" }

  /// Linear progress at monotonic `now`.
  func progress(at now: Double) -> Double {
    if let outcome { return outcome.progress }
    return clockLine?.progress(at: now) ?? clock.progress(at: now)
  }

  /// Subscriptions currently receiving this session's frames.
  var subscriberCount: Int {
    streams.values.reduce(virtualReaders) { $0 + $1.subscriberCount }
  }

  /// Renders the `frame` line at `progress`, `t` seconds into the session, numbered `seq`,
  /// and lends it to `body` (valid only during the call). A live frame (the session's own
  /// clock at `t`) moves the layers a finger holds; a completed session's, or a virtual
  /// clock's, shows the timeline alone.
  func render(
    seq: Int, progress: Double, t: Double, live: Bool = true,
    _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    renderer.render(
      seq: seq, progress: progress, time: t, following: liveFollower(live), at: startTime + t,
      body)
  }

  /// The finger's last position, while the session follows one.
  var touch: Point? { outcome == nil ? follower?.touch : nil }

  /// Renders as the method above does, and lends `body` the evaluated frame beside its line.
  func render(
    seq: Int, progress: Double, t: Double, live: Bool = true,
    _ body: (UnsafeRawBufferPointer, Frame) -> Void
  ) {
    renderer.render(
      seq: seq, progress: progress, time: t, following: liveFollower(live), at: startTime + t,
      body)
  }

  /// Evaluates the frame the methods above render and lends it to `body`, its line not
  /// encoded: for a frame only delta subscribers take (``FrameDeltaEncoder``).
  func evaluate(progress: Double, t: Double, live: Bool = true, _ body: (Frame) -> Void) {
    renderer.evaluate(
      progress: progress, time: t, following: liveFollower(live), at: startTime + t, body)
  }

  /// The follower that moves a frame's held layers: while a finger holds them, for a live
  /// frame (the session's own clock) of a session not yet completed; nil otherwise. Asked of
  /// the kept flag before the follower is read, so that a frame without a finger copies none
  /// of it.
  private func liveFollower(_ live: Bool) -> GestureFollower? {
    live && (outcome == nil || outcome?.interruptedBy != nil) && isFollowingTouch ? follower : nil
  }

  /// Per layer, the fields its frames change (``TransitionWire/FrameRenderer/animatedFields``).
  var animatedFields: [LayerFields] { renderer.animatedFields }

  /// The session that interrupted this one; nil otherwise.
  var interruptedBy: String? { outcome?.interruptedBy }

  /// The session time at which another session interrupted this one; nil otherwise.
  var interruptionTime: Double? {
    guard let outcome, outcome.interruptedBy != nil else { return nil }
    return outcome.time - startTime
  }

  /// The layers as presented at monotonic `now` and one and two ``Handover/velocityStep``s
  /// before, for a session that interrupts this one.
  func presentedFrames(at now: Double) -> [Frame] {
    var frames: [Frame] = []
    for steps in 0..<3 {
      let t = max(now - Double(steps) * Handover.velocityStep - startTime, 0)
      renderer.evaluate(
        progress: progress(at: startTime + t), time: t, following: liveFollower(true),
        at: startTime + t
      ) { frames.append($0) }
    }
    return frames
  }

  /// Ends the session at once because the session `newID` interrupted it at monotonic `now`:
  /// the final frame shows the layers as presented then, and `complete` carries
  /// `interruptedBy`.
  func interrupt(by newID: String, at now: Double) {
    guard outcome == nil else { return }
    complete(finished: false, at: now, interruptedBy: newID)
  }

  /// Starts the completion timer; call once, after the session is in the table.
  func start() {
    scheduleCompletion()
  }

  /// The wall-clock stream paced by `pacing` whose layers carry `geometry`, created when
  /// missing (its first frame then numbered `firstSeq`).
  func stream(pacing: FramePacing, geometry: FrameGeometry = .none, firstSeq: Int = 0)
    -> FrameStream
  {
    let key = StreamKey(pacing: pacing, geometry: geometry)
    if let stream = streams[key] { return stream }
    let stream = FrameStream(
      session: self, pacing: pacing, geometry: geometry, frameClocks: frameClocks,
      firstSeq: firstSeq)
    streams[key] = stream
    return stream
  }

  /// Forgets a stream that lost its last subscriber.
  func streamBecameEmpty(_ stream: FrameStream) {
    let key = StreamKey(pacing: stream.pacing, geometry: stream.geometry)
    guard streams[key] === stream else { return }
    frameClocks.remove(stream)
    streams[key] = nil
  }

  /// Whether the session's clock reaches its end by `time` without a change: its completion
  /// timer then sends the final frame at the end, and a frame clock renders no frame for a
  /// deadline at or after it.
  func ends(by time: Double) -> Bool {
    guard let end = clockEndTime else { return false }
    return end <= time
  }

  /// Completes the session if its clock has reached the end by `now`.
  ///
  /// - Returns: True when the session is completed (now or earlier).
  @discardableResult
  func advance(to now: Double) -> Bool {
    if outcome != nil { return true }
    var time = now
    // A timer may fire a hair before its deadline; count that as the deadline.
    if let end = clock.endTime, now < end, end - now < 1e-3 { time = end }
    guard let completion = clock.advance(to: time) else { return false }
    complete(finished: completion.finished, at: completion.time)
    return true
  }

  /// Applies an interactive control to the clock at `now`. Call ``propagateChange(at:)``
  /// next (after replying), which completes the session or re-schedules its completion and
  /// sends the new state to the streams.
  ///
  /// A touch moves the finger of a timeline with a gesture; without `progress`, the drag sets
  /// the progress. `finish` and `cancel` without a `velocity` take it from the finger's
  /// `touchVelocity` (along the gesture's axis, over its range) while a finger is down.
  ///
  /// - Returns: For `update`, what set the progress; nil for the other controls.
  /// - Throws: `EngineError` with code `invalidState` when the clock's state forbids it,
  ///   `outOfRange` or `nonFinite` for a bad progress or velocity, `invalidValue` for a touch
  ///   alone on a timeline that follows no finger. Nothing changes when it throws.
  @discardableResult
  func apply(_ control: SessionControl, at now: Double) throws(EngineError) -> FollowedInput? {
    guard outcome == nil else {
      throw EngineError(.invalidState, "session \(id) is completed")
    }
    var touchVelocity = Point.zero
    switch control {
    case .update(let progress, let touch):
      guard let touch, var moved = follower else {
        guard let progress else {
          throw EngineError(
            .invalidValue,
            "animator \(animatorName) does not follow a touch for \(operation.rawValue): "
              + "update needs progress")
        }
        try clock.update(progress: progress, at: now)
        return .progress
      }
      guard clock.state == .interactive else {
        throw EngineError(
          .invalidState, "cannot update a transition that is \(clock.state.rawValue)")
      }
      let dragged = moved.move(
        to: touch, progress: clock.progress(at: now), evaluator: renderer.evaluator)
      try clock.update(progress: progress ?? dragged, at: now)
      follower = moved
      return progress == nil ? .touch : .progress
    case .pause: try clock.pause(at: now)
    case .resume: try clock.resume(at: now)
    case .reverse: try clock.reverse(at: now)
    case .seek(let progress): try clock.seek(progress: progress, at: now)
    case .finish(let velocity, let finger):
      touchVelocity = finger ?? .zero
      try clock.finish(velocity: velocity ?? fingerVelocity(finger), at: now)
    case .cancel(let velocity, let finger):
      touchVelocity = finger ?? .zero
      try clock.cancel(velocity: velocity ?? fingerVelocity(finger), at: now)
    case .release(let finger):
      touchVelocity = finger
      let velocity = fingerVelocity(finger)
      switch try releaseDecision(touchVelocity: finger, at: now) {
      case .finish: try clock.finish(velocity: velocity, at: now)
      case .cancel: try clock.cancel(velocity: velocity, at: now)
      }
    }
    followClock(touchVelocity: touchVelocity, at: now)
    return nil
  }

  /// What a finger letting go at `touchVelocity` decides: its speed along the gesture's
  /// direction in points per second (the progress velocity times the range) and the progress.
  /// - Throws: `invalidValue` when no finger holds the session.
  private func releaseDecision(touchVelocity: Point, at now: Double) throws(EngineError)
    -> ReleaseDecision
  {
    guard let follower, follower.isFollowing else {
      throw EngineError(
        .invalidValue,
        "release needs a finger down (a touch on a timeline with a gesture); "
          + "use finish or cancel")
    }
    let speed = follower.progressVelocity(touchVelocity: touchVelocity) * follower.gesture.range
    return ReleaseDecision(progress: clock.progress(at: now), speed: speed)
  }

  /// The progress velocity of a finger leaving at `touchVelocity`, within the clock's range;
  /// nil without a finger down or a velocity.
  private func fingerVelocity(_ touchVelocity: Point?) -> Double? {
    guard let touchVelocity, let follower, follower.isFollowing else { return nil }
    let limit = TransitionClock.maximumReleaseVelocity
    return min(max(follower.progressVelocity(touchVelocity: touchVelocity), -limit), limit)
  }

  /// The clock changed: a finger still down lets go (the clock now moves on its own) at
  /// `touchVelocity`; a released offset carries on towards the clock's new end.
  private func followClock(touchVelocity: Point, at now: Double) {
    guard var follower, follower.isTouched else { return }
    // Inputs are finite (checked by the decoder), so neither throws; a failure keeps the
    // follower as it was rather than half changed.
    if follower.isFollowing {
      if clock.state != .interactive {
        try? follower.release(
          touchVelocity: touchVelocity, clock: clock, at: now, evaluator: renderer.evaluator)
      }
    } else {
      try? follower.clockChanged(clock, at: now)
    }
    self.follower = follower
  }

  /// Cancels the session at once (the admin `end` op): the final frame shows the initial
  /// state and `complete` says `finished: false`.
  func end(at now: Double) {
    guard outcome == nil else { return }
    complete(finished: false, at: now)
  }

  /// The client that began the session went away: an interactive session is cancelled (it
  /// would otherwise wait for ever), a paused non-interactive one resumes; a moving session
  /// runs on to its end.
  func ownerLeft(at now: Double) {
    guard outcome == nil, !isMoving else { return }
    if interactive {
      try? clock.cancel(velocity: nil, at: now)
    } else {
      try? clock.resume(at: now)
    }
    followClock(touchVelocity: .zero, at: now)
    propagateChange(at: now)
  }

  /// Stops every timer without completing (shutdown).
  func shutDown() {
    completionTimer?.cancel()
    completionTimer = nil
    for stream in streams.values { frameClocks.remove(stream) }
  }

  /// Acts on a change of the clock: completes the session when it reached its end, otherwise
  /// re-schedules the completion timer and has every stream send a frame of the new state at
  /// once (the frame clock's grid then goes on while the session moves).
  func propagateChange(at now: Double) {
    if advance(to: now) { return }
    scheduleCompletion()
    for stream in Array(streams.values) { stream.sessionChanged(at: now) }
  }

  private func scheduleCompletion() {
    guard let end = clock.endTime, outcome == nil else {
      completionTimer?.cancel()
      return
    }
    if completionTimer == nil {
      // Unowned, not weak: a weak reference would give the session a side table, and every
      // reference to it, one a frame, would be counted the slow way. The timer never fires
      // once the session is gone (deinit cancels it).
      completionTimer = clockSource.makeTimer { [unowned self] in
        if !self.advance(to: self.clockSource.now) { self.scheduleCompletion() }
      }
    }
    completionTimer?.schedule(at: end)
  }

  private func complete(finished: Bool, at time: Double, interruptedBy: String? = nil) {
    let progress = interruptedBy == nil ? (finished ? 1 : 0) : progress(at: time)
    outcome = Outcome(
      finished: finished, time: time, progress: progress, interruptedBy: interruptedBy)
    completionTimer?.cancel()
    completionTimer = nil
    let finishedStreams = Array(streams.values)
    streams = [:]
    for stream in finishedStreams {
      stream.finish(progress: progress, t: time - startTime, finished: finished)
    }
    let handler = onComplete
    onComplete = nil
    handler?(self)
  }
}

@available(*, unavailable) extension Session: Sendable {}
