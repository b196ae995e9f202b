import PluginHost
import TransitionJSON
import TransitionKit
import TransitionWire

/// `begin` and the interactive control ops.
extension Daemon {
  func handleBegin(_ request: Request, from client: ClientConnection) throws(WireError) {
    let limits = config.limits
    if let refusal = sessionQuota.refusal(
      client: client.id, uid: client.credentials?.uid, limits: limits)
    {
      throw refusal
    }
    let contextValue: JSONValue
    do {
      contextValue = try request.body.required("context").value
    } catch {
      throw WireError(.badRequest, error.message)
    }
    let context: TransitionContext
    do {
      context = try TransitionContext(json: contextValue, path: "context")
    } catch {
      throw WireError(.invalidContext, error.message)
    }
    let layerCount = context.from.layers.count + context.to.layers.count
    guard layerCount <= limits.maxLayersPerContext else {
      throw WireError(
        .limitExceeded,
        "context has \(layerCount) layers, more than the limit of \(limits.maxLayersPerContext) "
          + "(limits.maxLayersPerContext)")
    }
    let duration = try request.optionalNumber("duration")
    if let duration, !(duration > 0) {
      throw WireError(.badRequest, "duration must be a positive number of seconds, got \(duration)")
    }
    if let duration, duration > limits.maxSessionSeconds {
      throw WireError(
        .limitExceeded,
        "duration \(duration) s is longer than the limit of \(limits.maxSessionSeconds) s "
          + "(limits.maxSessionSeconds)")
    }
    let interactive = try request.optionalBool("interactive") ?? false
    let requestedID = try requestedSessionID(request)
    let animatorName = try chooseAnimator(request, for: context.operation)

    var contextJSON = context.json
    if let duration, case .object(var members) = contextJSON {
      members["duration"] = .number(duration)
      contextJSON = .object(members)
    }
    var sink = ByteSink(capacity: 1024)
    sink.appendJSON(contextJSON)
    let made = try makeTimeline(animator: animatorName, contextJSON: sink.bytes)
    if duration == nil, made.timeline.duration > limits.maxSessionSeconds {
      throw WireError(
        .limitExceeded,
        "animator \(made.animator) made a timeline of \(made.timeline.duration) s, longer than "
          + "the limit of \(limits.maxSessionSeconds) s (limits.maxSessionSeconds)")
    }

    let session: Session
    do {
      session = try Session(
        id: requestedID ?? sessions.makeID(), context: context, animatorName: made.animator,
        timeline: made.timeline,
        duration: duration, interactive: interactive, owner: client, loop: loop)
    } catch {
      throw WireError(
        .animatorFailed, "animator \(made.animator) returned an unusable timeline: \(error.message)"
      )
    }
    client.reply(
      id: request.id,
      [
        "session": .string(session.id), "animator": .string(made.animator),
        "operation": .string(context.operation.rawValue),
        "duration": .number(session.duration), "fallback": .bool(made.fallback),
        "layers": .number(Double(made.timeline.layers.count)), "interactive": .bool(interactive),
      ])
    logger.info(
      "session \(session.id) began: \(context.operation.rawValue) by \(made.animator)"
        + (made.fallback ? " (fallback)" : "") + ", \(session.duration) s"
        + (interactive ? ", interactive" : "") + ", for \(client.peerDescription)")
    start(session)
    // Writing the reply may have disconnected a client far over its limits.
    if !client.isOpen {
      sessionQuota.clientLeft(client.id)
      session.ownerLeft(at: loop.now)
    }
  }

  func handleControl(_ op: String, _ request: Request, from client: ClientConnection)
    throws(WireError)
  {
    let session = try existingSession(request)
    guard mayControl(session, client) else {
      throw WireError(
        .forbidden,
        "session \(session.id) belongs to another user; only its user or an admin may \(op) it")
    }
    let control: SessionControl
    switch op {
    case "update": control = .update(progress: try request.requiredNumber("progress"))
    case "seek": control = .seek(progress: try request.requiredNumber("progress"))
    case "pause": control = .pause
    case "resume": control = .resume
    case "reverse": control = .reverse
    case "finish": control = .finish(velocity: try request.optionalNumber("velocity"))
    default: control = .cancel(velocity: try request.optionalNumber("velocity"))
    }
    let now = loop.now
    do {
      try session.apply(control, at: now)
    } catch {
      let code: WireError.Code = error.code == .invalidState ? .invalidState : .badRequest
      throw WireError(code, "session \(session.id): \(error.message)")
    }
    // The reply goes out before the frames and the `complete` the change causes.
    client.reply(
      id: request.id,
      [
        "session": .string(session.id), "state": .string(session.clock.state.rawValue),
        "progress": .number(session.clock.progress(at: now)),
      ])
    session.propagateChange(at: now)
  }

  /// The running session named by the request's `session` field.
  ///
  /// - Throws: `bad_request` when the field is missing, `unknown_session` when no session
  ///   of that id runs.
  func existingSession(_ request: Request) throws(WireError) -> Session {
    let id = try request.requiredString("session")
    guard let session = sessions[id] else {
      throw WireError(.unknownSession, "no session named \(id)")
    }
    return session
  }

  /// The loaded animator named `name`.
  ///
  /// - Throws: `unknown_animator` when none is loaded.
  func loadedAnimator(named name: String) throws(WireError) -> AnimatorInfo {
    guard let animator = registry.animator(named: name) else {
      let loaded = registry.animators.map(\.name).joined(separator: ", ")
      throw WireError(.unknownAnimator, "no animator named \(name) is loaded (loaded: \(loaded))")
    }
    return animator
  }

  /// The session's owner, a client of the same user, or an admin may control it.
  private func mayControl(_ session: Session, _ client: ClientConnection) -> Bool {
    if session.ownerConnectionID == client.id { return true }
    if let owner = session.ownerUID, let uid = client.credentials?.uid, owner == uid {
      return true
    }
    return adminPolicy.isAdmin(client.credentials)
  }

  /// The session id the client chose, checked; nil when it chose none.
  private func requestedSessionID(_ request: Request) throws(WireError) -> String? {
    guard let requested = try request.optionalString("session") else { return nil }
    if let problem = SessionID.problem(with: requested) {
      throw WireError(.badRequest, problem)
    }
    guard sessions[requested] == nil else {
      throw WireError(.badRequest, "session \(requested) is already running")
    }
    return requested
  }

  /// The animator named by the request, or the one routed for `operation`.
  private func chooseAnimator(_ request: Request, for operation: TransitionOperation)
    throws(WireError) -> String
  {
    let name: String
    if let requested = try request.optionalString("animator") {
      name = requested
    } else {
      guard let routed = routes.animator(for: operation) else {
        throw WireError(.unknownAnimator, "no animator is routed for \(operation.rawValue)")
      }
      name = routed
    }
    let animator = try loadedAnimator(named: name)
    guard animator.serves(operation) else {
      throw WireError(
        .unsupportedOperation,
        "animator \(name) does not serve \(operation.rawValue) (it serves "
          + animator.orderedOperations.map(\.rawValue).joined(separator: ", ") + ")")
    }
    return name
  }

  /// Asks `animator` for the timeline, falling back to `default-slide` when it declines.
  ///
  /// - Throws: `animator_failed` when the animator fails, returns a malformed timeline, or
  ///   declines and the fallback cannot serve either.
  private func makeTimeline(animator name: String, contextJSON: [UInt8]) throws(WireError) -> (
    timeline: Timeline, animator: String, fallback: Bool
  ) {
    switch registry.makeTimeline(animator: name, contextJSON: contextJSON) {
    case .timeline(let bytes):
      return (try decodeTimeline(bytes, animator: name), name, false)
    case .failed(let message):
      throw logged(WireError(.animatorFailed, "animator \(name) failed: \(message)"))
    case .declined:
      let fallback = PluginRegistry.fallbackAnimatorName
      guard name != fallback, registry.animator(named: fallback) != nil else {
        throw WireError(.animatorFailed, "animator \(name) declined the context")
      }
      logger.debug("animator \(name) declined the context; falling back to \(fallback)")
      switch registry.makeTimeline(animator: fallback, contextJSON: contextJSON) {
      case .timeline(let bytes):
        return (try decodeTimeline(bytes, animator: fallback), fallback, true)
      case .failed(let message):
        throw logged(
          WireError(
            .animatorFailed, "animator \(name) declined and \(fallback) failed: \(message)"))
      case .declined:
        throw WireError(.animatorFailed, "animator \(name) and the fallback \(fallback) declined")
      }
    }
  }

  /// Logs an animator's failure (the client gets it too, in the reply) and returns it.
  private func logged(_ error: WireError) -> WireError {
    logger.warn(error.message)
    return error
  }

  private func decodeTimeline(_ bytes: [UInt8], animator: String) throws(WireError) -> Timeline {
    do {
      return try Timeline(jsonBytes: bytes)
    } catch {
      logger.warn("animator \(animator) returned a malformed timeline: \(error.message)")
      throw WireError(
        .animatorFailed, "animator \(animator) returned a malformed timeline: \(error.message)")
    }
  }
}
