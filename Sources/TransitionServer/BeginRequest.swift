import TransitionJSON
import TransitionKit
import TransitionWire

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
  /// Whether to play reduced motion: the request's `reduceMotion`, else the context's; nil
  /// when neither says (the config's default then holds).
  var reduceMotion: Bool?
  /// The running session this one interrupts (`interrupts`): it ends when this one starts,
  /// and this one takes over its layers as presented (docs/protocol.md, "Interruption").
  var interrupts: String?
  /// The context's text as the request has it (``Request/contextText``), for ``contextJSON``:
  /// a JSON object, so it ends with `}`.
  var contextText: [UInt8]

  init(_ request: Request) throws(WireError) {
    // The context's one read: from its text, which the request's parse checked but did not
    // build (`Request.body` holds `null` for it).
    guard let text = request.contextText, text != Self.nullText else {
      throw WireError(.badRequest, "context is required")
    }
    do {
      context = try TransitionContext(jsonBytes: text, path: "context")
    } catch {
      throw WireError(.invalidContext, error.message)
    }
    contextText = text
    try Self.refuseMisplacedMembers(of: context)
    duration = try request.optionalNumber("duration")
    if let duration, !(duration > 0) {
      throw WireError(
        .badRequest, "duration must be a positive number of seconds, got \(duration)")
    }
    var contextReduceMotion: Bool?
    if let member = context.hints[TransitionContext.reduceMotionKey] {
      guard case .bool(let flag) = member else {
        throw WireError(
          .invalidContext,
          "context.\(TransitionContext.reduceMotionKey) must be true or false, got \(member.serialized)"
        )
      }
      contextReduceMotion = flag
    }
    reduceMotion = try request.optionalBool("reduceMotion") ?? contextReduceMotion
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
    interrupts = try request.optionalString("interrupts")
    params = try request.optionalNumbers("params") ?? [:]
  }

  /// A `null` context's text: absent, as an optional member that is `null` is.
  private static let nullText = Array("null".utf8)

  /// The members of `begin` itself (and of a scene file, which `transitionctl play` sends as
  /// `begin`'s) that a context cannot carry as hints: sent inside the context (a scene file
  /// sent verbatim as `context`), they would be passed to the animator and do nothing, so
  /// they are refused as a misplaced request member is. `duration` is not among them: the
  /// context's own `duration` is a hint the animator reads.
  static let misplacedContextMembers = [
    "animator", "description", "interactive", "hints", "session", "params", "touch", "interrupts",
    "context",
  ]

  /// Refuses a context that carries one of ``misplacedContextMembers``, with `bad_request`
  /// naming its path (`context.animator`) and where it belongs.
  private static func refuseMisplacedMembers(of context: TransitionContext) throws(WireError) {
    for member in misplacedContextMembers where context.hints[member] != nil {
      let belongs =
        member == "description" ? "a scene file's own member, not sent" : "a member of begin"
      throw WireError(
        .badRequest,
        "context.\(member) is not a context member (\(belongs)): the context takes operation, "
          + "container, from, to, selected, match, reduceMotion and the app's own hints")
    }
  }

  /// The context as the animator receives it, decoded: the validated context with the members
  /// ``contextJSON(reduceMotion:)`` adds to its text set in its hints, as a read of that text
  /// would set them. For the fallback, which runs in this process and reads no text.
  func animatorContext(reduceMotion: Bool) -> TransitionContext {
    var animatorContext = context
    if reduceMotion || context.hints[TransitionContext.reduceMotionKey] != nil {
      animatorContext.hints[TransitionContext.reduceMotionKey] = .bool(reduceMotion)
    }
    if let duration { animatorContext.hints["duration"] = .number(duration) }
    if !params.isEmpty {
      animatorContext.hints["params"] = .object(params.mapValues(JSONValue.number))
    }
    if let touch { animatorContext.hints["touch"] = .array([.number(touch.x), .number(touch.y)]) }
    return animatorContext
  }

  /// The context as the animator receives it: the request's text of it (validated), with
  /// `duration`, `params` and `touch` added when the request has them, and `reduceMotion` as
  /// the daemon resolved it (`reduceMotion`: the request's, the context's or the config's)
  /// when it is true or the context has the member.
  func contextJSON(reduceMotion: Bool) -> [UInt8] {
    var added = ByteSink(capacity: 128)
    // Said when it is true, or when the context says it too (the resolved value wins).
    if reduceMotion || context.hints[TransitionContext.reduceMotionKey] != nil {
      added.append(reduceMotion ? ",\"reduceMotion\":true" : ",\"reduceMotion\":false")
    }
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
