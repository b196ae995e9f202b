import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// `begin`, the interactive control ops and `end`: the life of a session.
extension ServerCore {
  /// Checks `request` against the quotas, the limits and the routes, asks the animator for
  /// the timeline, and replies once it answers (at once for in-process plugins). The client's
  /// later requests wait for that reply; the session counts against the quotas from now on.
  func begin(_ request: BeginRequest, id: RequestID?, from client: Client) throws(WireError) {
    let limits = config.limits
    let uid = client.identity?.uid
    if let refusal = sessionQuota.refusal(client: client.id, uid: uid, limits: limits) {
      throw refusal
    }
    let context = request.context
    let layerCount = context.from.layers.count + context.to.layers.count
    guard layerCount <= limits.maxLayersPerContext else {
      throw WireError(
        .limitExceeded,
        "context has \(layerCount) layers, more than the limit of \(limits.maxLayersPerContext) "
          + "(limits.maxLayersPerContext)")
    }
    if let duration = request.duration, duration > limits.maxSessionSeconds {
      throw WireError(
        .limitExceeded,
        "duration \(duration) s is longer than the limit of \(limits.maxSessionSeconds) s "
          + "(limits.maxSessionSeconds)")
    }
    try requireFree(request.session)
    if let interrupted = request.interrupts {
      try requireInterruptible(interrupted, by: client)
      if interrupted == request.session {
        throw WireError(.badRequest, "a session cannot interrupt itself (\(interrupted))")
      }
    }
    let name: String
    if let requested = request.animator {
      name = requested
    } else {
      guard let routed = routes.animator(for: context.operation) else {
        throw WireError(.unknownAnimator, "no animator is routed for \(context.operation.rawValue)")
      }
      name = routed
    }
    let animator = try loadedAnimator(named: name)
    try requireServes(animator, context.operation)
    try requireParameters(request.params, of: animator)

    sessionQuota.charge(client: client.id, uid: uid)
    let reduceMotion = request.reduceMotion ?? config.reduceMotion
    if reduceMotion, !animator.hasReducedForm {
      // The animator has no reduced form: the daemon's cross-fade plays in its place.
      let result: Result<TimelineRequest.Made, WireError>
      do throws(EngineError) {
        let timeline = try ReducedMotionCrossfade.timeline(
          for: context, duration: request.duration ?? config.reducedMotionDuration)
        result = .success(TimelineRequest.Made(timeline: timeline, animator: name))
      } catch {
        result = .failure(WireError(.badRequest, error.message))
      }
      if !answerBegin(request, result, reducedMotion: true, id: id, from: client) {
        sessionQuota.release(client: client.id, uid: uid)
      }
      return
    }
    client.isWaitingForAnimator = true
    let timelineRequest = TimelineRequest(
      animators: animators, context: request.animatorContext(reduceMotion: reduceMotion),
      contextJSON: request.contextJSON(reduceMotion: reduceMotion),
      maximumSeconds: request.duration == nil ? limits.maxSessionSeconds : nil, logger: logger)
    timelineRequest.start(animator: name) { [weak self] result in
      guard let self else { return }
      if !self.answerBegin(request, result, reducedMotion: reduceMotion, id: id, from: client) {
        self.sessionQuota.release(client: client.id, uid: uid)
      }
      self.resumeWaitingRequests(of: client)
      // The answer may come after the request's line was handled, while the connection
      // holds frames for a deadline: the replies leave now all the same.
      client.flushNow()
    }
  }

  /// Starts the session the animator made a timeline for, or sends the error.
  ///
  /// - Parameter reducedMotion: whether the timeline is a reduced form (the animator's, the
  ///   fallback's, or the daemon's cross-fade).
  /// - Returns: True when the session started.
  private func answerBegin(
    _ request: BeginRequest, _ result: Result<TimelineRequest.Made, WireError>,
    reducedMotion: Bool, id: RequestID?, from client: Client
  ) -> Bool {
    do throws(WireError) {
      let made = try result.get()
      guard !isStopping else { throw WireError(.stopping, "the daemon is stopping") }
      // Another begin may have taken the id while the animator worked.
      try requireFree(request.session)
      let session: Session
      // The session it interrupts, when that one still runs (it may have ended while the
      // animator worked: the new one then starts from its own beginning).
      let interrupted = request.interrupts.flatMap { sessions[$0] }.flatMap {
        $0.isCompleted ? nil : $0
      }
      // The handover's instant: the interrupted session's last frame shows it, and the new
      // session's clock starts there.
      let now = clock.now
      do {
        let id = request.session ?? sessions.makeID()
        var renderer: FrameRenderer
        if let interrupted {
          renderer = try handoverRenderer(
            from: interrupted, to: made.timeline, request: request, session: id, at: now)
        } else {
          renderer = compiledTimelines.renderer(for: made.timeline, session: id)
        }
        session = try Session(
          id: id, context: request.context, animatorName: made.animator,
          timeline: made.timeline,
          renderer: renderer,
          duration: request.duration,
          interactive: request.interactive, touch: request.touch, owner: client, clock: clock,
          frameClocks: frameClocks, startTime: interrupted == nil ? nil : now)
      } catch {
        throw WireError(
          .animatorFailed,
          "animator \(made.animator) returned an unusable timeline: \(error.message)")
      }
      session.reducedMotion = reducedMotion
      session.interrupted = interrupted?.id
      var members: [String: JSONValue] = [
        "session": .string(session.id), "animator": .string(made.animator),
        "motion": .string(session.motionName),
        "operation": .string(session.operation.rawValue),
        "duration": .number(session.duration), "fallback": .bool(made.fallback != nil),
        "layers": .number(Double(session.layerCount)),
        "interactive": .bool(session.interactive), "start": .number(session.startTime),
      ]
      if let reason = made.fallback {
        members["fallbackReason"] = .string(reason.code)
        members["fallbackMessage"] = .string(reason.message)
      }
      if !made.timeline.warnings.isEmpty {
        members["warnings"] = .array(made.timeline.warnings.map(JSONValue.string))
      }
      client.reply(id: id, members)
      logger.info(
        "session \(session.id) began: \(session.operation.rawValue) by \(made.animator)"
          + (made.fallback.map { " (fallback: \($0.code))" } ?? "") + ", \(session.duration) s"
          + (session.interactive ? ", interactive" : "") + ", for \(client)")
      start(session)
      if let interrupted {
        logger.info("session \(interrupted.id) interrupted by \(session.id)")
        interrupted.interrupt(by: session.id, at: now)
      }
      // The client may have gone while the animator worked, or on a reply far over its limits.
      if !client.isOpen { session.ownerLeft(at: clock.now) }
      return true
    } catch {
      client.fail(id: id, error)
      return false
    }
  }

  /// A renderer of `timeline` for the session `id`, which takes over `interrupted`'s layers
  /// as presented at monotonic `now` (``TransitionKit/Handover``).
  ///
  /// - Throws: `EngineError` when the duration cannot drive a clock.
  private func handoverRenderer(
    from interrupted: Session, to timeline: Timeline, request: BeginRequest, session id: String,
    at now: Double
  ) throws(EngineError) -> FrameRenderer {
    let duration = request.duration ?? timeline.duration
    guard duration > 0, duration.isFinite else {
      throw EngineError(.invalidValue, "duration must be positive, got \(duration)")
    }
    let evaluator = TimelineEvaluator(timeline)
    // The new timeline from just after its start; an interactive one waits there for its
    // first update.
    let start = Handover.startProgress
    let new = (0..<3).map { steps in
      let t = start * duration + Double(steps) * Handover.velocityStep
      return evaluator.frame(progress: request.interactive ? start : t / duration, time: t)
    }
    let handover = Handover(
      old: interrupted.presentedFrames(at: now), new: new,
      duration: timeline.handover ?? Handover.defaultDuration, timeline: timeline,
      playedOver: duration)
    return FrameRenderer(session: id, timeline: timeline, handover: handover)
  }

  /// Throws unless `client` may interrupt the session `id`: it runs (in any state but
  /// completed) and the client may control it.
  private func requireInterruptible(_ id: String, by client: Client) throws(WireError) {
    guard let session = sessions[id], !session.isCompleted else {
      throw WireError(.unknownSession, "interrupts: no running session \(id)")
    }
    guard mayControl(session, client) else {
      throw WireError(
        .forbidden,
        "session \(id) belongs to another user; only its user or an admin may interrupt it")
    }
  }

  /// Adds a session that has just been created and starts its completion timer; `*`
  /// subscribers receive its `begin` event and start following it.
  private func start(_ session: Session) {
    session.onComplete = { [unowned self] session in self.sessionCompleted(session) }
    sessions.insert(session)
    stats.sessionsByAnimator[session.animatorName, default: 0] += 1
    session.start()
    let now = clock.now
    for subscription in sessions.everySessionSubscriptions {
      guard let client = subscription.client else { continue }
      client.send(beginEvent(for: session, subscription: subscription))
      guard client.isOpen else { continue }
      subscription.follow(session, at: now)
      if subscription.clock == .virtual { client.pumpVirtual() }
    }
  }

  /// The `begin` event that opens `session`'s stream for `subscription`: everything a
  /// renderer needs to draw the session (docs/protocol.md, "begin" under Events). Every
  /// subscriber gets it before the session's first frame.
  func beginEvent(for session: Session, subscription: Subscription) -> [UInt8] {
    var fields: [String: JSONValue] = [
      "session": .string(session.id),
      "container": .array([
        .number(session.context.container.width), .number(session.context.container.height),
      ]),
      "animator": .string(session.animatorName),
      "operation": .string(session.operation.rawValue), "duration": .number(session.duration),
      "clock": .string(subscription.clock.rawValue), "fps": .number(subscription.fps),
      "encoding": .string(subscription.encoding.rawValue),
      "interactive": .bool(session.interactive), "start": .number(session.startTime),
      "motion": .string(session.motionName),
    ]
    if let interrupted = session.interrupted, let length = session.handoverLength {
      fields["interrupts"] = .string(interrupted)
      fields["handover"] = .number(length)
    }
    if subscription.includesTimeline { fields["timeline"] = session.timeline.json }
    if let display = subscription.display { fields["display"] = display.json }
    return WireMessage.event("begin", fields)
  }

  private func sessionCompleted(_ session: Session) {
    sessions.remove(session)
    sessionQuota.release(client: session.ownerPeerID, uid: session.ownerUID)
    let finished = session.outcome?.finished ?? false
    if finished {
      stats.sessionsCompleted += 1
    } else {
      stats.sessionsCancelled += 1
    }
    logger.info("session \(session.id) \(finished ? "finished" : "was cancelled")")
  }

  /// Throws `bad_request` when a session called `id` is running.
  private func requireFree(_ id: String?) throws(WireError) {
    guard let id, sessions[id] != nil else { return }
    throw WireError(.badRequest, "session \(id) is already running")
  }

  /// Applies `control` to the session; the reply goes out before the frame showing the change
  /// and any `complete` it causes.
  func control(
    _ control: SessionControl, session id: String, id requestID: RequestID?, from client: Client
  )
    throws(WireError)
  {
    let session = try existingSession(id)
    guard mayControl(session, client) else {
      throw WireError(
        .forbidden,
        "session \(session.id) belongs to another user; only its user or an admin may "
          + "\(control.op.rawValue) it")
    }
    let now = clock.now
    let followed: FollowedInput?
    do {
      followed = try session.apply(control, at: now)
    } catch {
      let code: WireError.Code = error.code == .invalidState ? .invalidState : .badRequest
      throw WireError(code, "session \(session.id): \(error.message)")
    }
    client.send(
      WireMessage.controlReply(
        id: requestID, session: session.id, state: session.clock.state.rawValue,
        progress: session.clock.progress(at: now), followed: followed?.rawValue))
    session.propagateChange(at: now)
  }

  /// The admin `end`: replies, then cancels the session at once.
  func end(_ id: String, id requestID: RequestID?, from client: Client) throws(WireError) {
    let session = try existingSession(id)
    client.reply(id: requestID, ["session": .string(session.id)])
    logger.info("session \(session.id) ended by \(client)")
    session.end(at: clock.now)
  }

  /// The session's owner, a client of the same user, or an admin may control it.
  private func mayControl(_ session: Session, _ client: Client) -> Bool {
    if session.ownerPeerID == client.id { return true }
    if let owner = session.ownerUID, let uid = client.identity?.uid, owner == uid {
      return true
    }
    return adminPolicy.isAdmin(client.identity)
  }
}
