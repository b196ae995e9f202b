import TransitionJSON
import TransitionKit
import TransitionWire

/// One request decoded into its op and typed fields: the only place request fields are read
/// and checked, so a wrong or missing field is refused here with `bad_request` (or
/// `invalid_context`) naming it, before any handler runs.
///
/// Limits and the server's state (a session that must exist, a subscription count) are the
/// handlers' to check.
enum Command: Equatable {
  case hello
  case animators
  case routes
  case route(TransitionOperation, animator: String)
  case begin(BeginRequest)
  case subscribe(SubscribeRequest)
  case unsubscribe(subscription: Int)
  case resync(subscription: Int)
  case control(session: String, SessionControl)
  case end(session: String)
  case sessions
  case stats
  case reload

  /// Decodes the fields of `request` for `op`.
  ///
  /// - Parameter defaultFps: The frame rate of a `subscribe` that names none.
  /// - Throws: `WireError` `bad_request` naming the field, or `invalid_context`.
  init(_ op: Op, _ request: Request, defaultFps: Double) throws(WireError) {
    try request.allowOnly(Self.members(of: op), of: op)
    switch op {
    case .hello: self = .hello
    case .animators: self = .animators
    case .routes: self = .routes
    case .sessions: self = .sessions
    case .stats: self = .stats
    case .reload: self = .reload
    case .route:
      let name = try request.requiredString("operation")
      guard let operation = TransitionOperation(rawValue: name) else {
        throw WireError(
          .badRequest, "operation must be one of push, pop, present, dismiss, got \"\(name)\"")
      }
      self = .route(operation, animator: try request.requiredString("animator"))
    case .begin: self = .begin(try BeginRequest(request))
    case .subscribe: self = .subscribe(try SubscribeRequest(request, defaultFps: defaultFps))
    case .unsubscribe:
      self = .unsubscribe(subscription: try request.requiredInteger("subscription"))
    case .resync:
      self = .resync(subscription: try request.requiredInteger("subscription"))
    case .end: self = .end(session: try request.requiredString("session"))
    case .update, .pause, .resume, .reverse, .seek, .finish, .cancel:
      let session = try request.requiredString("session")
      self = .control(session: session, try Self.control(op, request))
    }
  }

  /// The members `op` takes besides `op` and `id` (docs/protocol.md, "Ops"): any other is
  /// refused with `bad_request` naming it. A new member is added here and in its decoder
  /// (ServerCoreRequestTests sends every op each member listed here).
  static func members(of op: Op) -> [String] {
    switch op {
    case .hello, .animators, .routes, .sessions, .stats, .reload: []
    case .route: ["operation", "animator"]
    case .begin: ["context", "animator", "duration", "interactive", "session", "params", "touch"]
    case .subscribe: ["session", "fps", "clock", "timeline", "encoding"]
    case .unsubscribe, .resync: ["subscription"]
    case .end, .pause, .resume, .reverse: ["session"]
    case .update: ["session", "progress", "touch"]
    case .seek: ["session", "progress"]
    case .finish, .cancel: ["session", "velocity", "touchVelocity"]
    }
  }

  /// The control of a control op; an op that is not one is a programming error.
  private static func control(_ op: Op, _ request: Request) throws(WireError) -> SessionControl {
    switch op {
    case .update:
      let progress = try request.optionalNumber("progress")
      let touch = try request.optionalPoint("touch")
      guard progress != nil || touch != nil else {
        throw WireError(.badRequest, "update needs progress, touch or both")
      }
      return .update(progress: progress, touch: touch)
    case .seek: return .seek(progress: try request.requiredNumber("progress"))
    case .pause: return .pause
    case .resume: return .resume
    case .reverse: return .reverse
    case .finish:
      return .finish(
        velocity: try request.optionalNumber("velocity"),
        touchVelocity: try request.optionalPoint("touchVelocity"))
    case .cancel:
      return .cancel(
        velocity: try request.optionalNumber("velocity"),
        touchVelocity: try request.optionalPoint("touchVelocity"))
    default: preconditionFailure("\(op.rawValue) is not a control op")
    }
  }
}

/// The fields of `begin` (docs/protocol.md, "begin").
struct BeginRequest: Equatable {
  /// The validated context.
  var context: TransitionContext
  /// The animator asked for; nil for the route of the context's operation.
  var animator: String?
  /// The length to play the timeline at, in seconds, positive (`limits.maxSessionSeconds` is
  /// the handler's to check); nil for the timeline's own.
  var duration: Double?
  /// Whether the session starts waiting for interaction.
  var interactive: Bool
  /// Where the finger went down, container points (interactive sessions only); animators
  /// read it as the context's `touch`.
  var touch: Point?
  /// The session id the client chose; nil for one the server picks.
  var session: String?
  /// The animator's parameters to set (`params`), checked against the animator's listing by
  /// the handler; empty for the defaults.
  var params: [String: Double]
  /// The context's text as the request has it (``Request/contextText``), for ``contextJSON``:
  /// a JSON object, so it ends with `}`.
  var contextText: [UInt8]

  init(_ request: Request) throws(WireError) {
    let contextValue: JSONValue
    do {
      contextValue = try request.body.required("context").value
    } catch {
      throw WireError(.badRequest, error.message)
    }
    do {
      // Read again from its text, which the fast path reads without walking the parsed
      // value; the same context, or the same error, as `TransitionContext(json:)` of it.
      if let text = request.contextText {
        context = try TransitionContext(jsonBytes: text, path: "context")
      } else {
        context = try TransitionContext(json: contextValue, path: "context")
      }
    } catch {
      throw WireError(.invalidContext, error.message)
    }
    duration = try request.optionalNumber("duration")
    if let duration, !(duration > 0) {
      throw WireError(
        .badRequest, "duration must be a positive number of seconds, got \(duration)")
    }
    interactive = try request.optionalBool("interactive") ?? false
    touch = try request.optionalPoint("touch")
    if touch != nil, !interactive {
      throw WireError(.badRequest, "touch needs interactive: true (a finger drives the session)")
    }
    session = try request.optionalString("session")
    if let session, let problem = SessionID.problem(with: session) {
      throw WireError(.badRequest, problem)
    }
    animator = try request.optionalString("animator")
    params = try request.optionalNumbers("params") ?? [:]
    // The text of the member whose value was just read: there whenever `context` is.
    contextText = request.contextText ?? []
  }

  /// The context as the animator receives it: the request's text of it (validated), with
  /// `duration`, `params` and `touch` added when the request has them.
  var contextJSON: [UInt8] {
    var added = ByteSink(capacity: 128)
    if let duration {
      added.append(",\"duration\":")
      added.appendNumber(duration)
    }
    if !params.isEmpty {
      added.append(",\"params\":")
      added.appendJSON(.object(params.mapValues(JSONValue.number)))
    }
    if let touch {
      added.append(",\"touch\":")
      added.appendJSON(.array([.number(touch.x), .number(touch.y)]))
    }
    // The request's own text (not the validated context written again), with the members
    // added before its closing brace: they win over any of the same name, as the last member
    // of a JSON object does. A context has members (`operation` at least), so a comma goes
    // before them.
    var text = contextText
    guard !added.bytes.isEmpty, text.last == UInt8(ascii: "}") else { return text }
    text.removeLast()
    text += added.bytes
    text.append(UInt8(ascii: "}"))
    return text
  }
}

/// The fields of `subscribe` (docs/protocol.md, "subscribe and unsubscribe").
struct SubscribeRequest: Equatable {
  /// A session id, or nil for `*` (every session).
  var session: String?
  var fps: Double
  var clock: Subscription.Clock
  /// Whether the stream's `begin` events carry the session's timeline (`timeline: true`).
  var timeline: Bool
  var encoding: FrameEncoding

  init(
    session: String?, fps: Double, clock: Subscription.Clock, timeline: Bool = false,
    encoding: FrameEncoding = .full
  ) {
    self.session = session
    self.fps = fps
    self.clock = clock
    self.timeline = timeline
    self.encoding = encoding
  }

  init(_ request: Request, defaultFps: Double) throws(WireError) {
    let target = try request.requiredString("session")
    session = target == "*" ? nil : target
    fps = try request.optionalNumber("fps") ?? defaultFps
    guard FrameRate.range.contains(fps) else {
      throw WireError(.badRequest, "fps must be in [1, 240], got \(JSONValue.format(fps))")
    }
    let clockName = try request.optionalString("clock") ?? Subscription.Clock.wall.rawValue
    guard let clock = Subscription.Clock(rawValue: clockName) else {
      throw WireError(.badRequest, "clock must be \"wall\" or \"virtual\", got \"\(clockName)\"")
    }
    self.clock = clock
    timeline = try request.optionalBool("timeline") ?? false
    let encodingName = try request.optionalString("encoding") ?? FrameEncoding.full.rawValue
    guard let encoding = FrameEncoding(rawValue: encodingName) else {
      throw WireError(
        .badRequest, "encoding must be \"full\" or \"delta\", got \"\(encodingName)\"")
    }
    self.encoding = encoding
  }

  /// The `session` field as the client wrote it.
  var target: String { session ?? "*" }
}
