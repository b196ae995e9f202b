import TransitionJSON
import TransitionKit
import TransitionWire

/// Typed wrappers over the protocol's ops. Each sends one request, waits up to
/// ``DaemonClient/defaultTimeout`` for its reply, and throws
/// ``ClientError/Code/protocolError`` when the daemon refuses it.
extension DaemonClient {
  /// `hello`: the version handshake.
  public func hello(client name: String = "transitiond-swift") throws(ClientError) -> ServerInfo {
    try ServerInfo(
      request(
        .hello,
        ["client": .string(name), "protocol": .number(Double(Self.protocolVersion))]))
  }

  /// The protocol version this client speaks, which `hello` states.
  public static let protocolVersion = 1

  /// `animators`: the loaded animators and the route table.
  public func animators() throws(ClientError) -> AnimatorList {
    try AnimatorList(request(.animators))
  }

  /// `routes`: which animator serves each operation.
  public func routes() throws(ClientError) -> [String: String] {
    try RouteTable.decode(request(.routes).object)
  }

  /// `route` (admin): makes `animator` serve `operation`.
  /// - Returns: the route table after the switch.
  /// - Throws: ``ClientError/Code/protocolError`` with `forbidden` for a non-admin peer,
  ///   `unknown_animator` or `unsupported_operation`.
  public func route(operation: String, animator: String) throws(ClientError) -> [String: String] {
    try RouteTable.decode(
      request(.route, ["operation": .string(operation), "animator": .string(animator)])
        .object)
  }

  /// `begin`: starts a session from a transition context.
  ///
  /// - Parameters:
  ///   - context: the context object (`operation`, `container`, `from`, `to`, …).
  ///   - animator: an animator to use instead of the routed one.
  ///   - duration: a duration in seconds instead of the animator's.
  ///   - interactive: when true the session waits for `update`/`finish`/`cancel`.
  ///   - session: an id to give the session instead of the daemon's `sN`.
  ///   - interrupts: the id of a running session this one interrupts: it ends, and this one
  ///     takes over its layers as presented (docs/protocol.md, "Interruption").
  public func begin(
    context: [String: JSONValue], animator: String? = nil, duration: Double? = nil,
    interactive: Bool? = nil, session: String? = nil, touch: TouchPoint? = nil,
    reduceMotion: Bool? = nil, interrupts: String? = nil
  ) throws(ClientError) -> BeginResult {
    var message: [String: JSONValue] = ["context": .object(context)]
    if let interrupts { message["interrupts"] = .string(interrupts) }
    if let reduceMotion { message["reduceMotion"] = .bool(reduceMotion) }
    if let touch { message["touch"] = touch.json }
    if let animator { message["animator"] = .string(animator) }
    if let duration { message["duration"] = .number(duration) }
    if let interactive { message["interactive"] = .bool(interactive) }
    if let session { message["session"] = .string(session) }
    return try BeginResult(request(.begin, message))
  }

  /// `subscribe`: starts streaming frames of `session` (or of every session with `"*"`);
  /// with `timeline`, each `begin` event carries the session's timeline.
  ///
  /// The reply precedes the first frame, so every frame of the subscription is read after this
  /// returns with ``nextEvent(timeout:)``.
  /// - Parameters:
  ///   - fps: frames per second; the daemon's configured rate when `nil`.
  ///   - clock: `wall` or `virtual`; the daemon's default (wall) when `nil`.
  ///   - encoding: `full` or `delta` (docs/protocol.md, "Delta frames"); the daemon's default
  ///     (full) when `nil`. The client rebuilds delta frames: every ``FrameEvent`` it hands out
  ///     is a full frame (``FrameEvent/key`` says how it arrived).
  ///   - geometry: `quad` to have each layer carry `quad`, `quadW` and `affine`
  ///     (docs/protocol.md, "Projected geometry"), members of ``FrameEvent/layers``.
  /// - Returns: the subscription's number, for ``unsubscribe(subscription:)``.
  public func subscribe(
    session: String, fps: Double? = nil, clock: SubscriptionClock? = nil, timeline: Bool = false,
    encoding: FrameEncoding? = nil, geometry: FrameGeometry? = nil
  ) throws(ClientError) -> Int {
    var message: [String: JSONValue] = ["session": .string(session)]
    if let fps { message["fps"] = .number(fps) }
    if let clock { message["clock"] = .string(clock.rawValue) }
    if timeline { message["timeline"] = .bool(true) }
    if let encoding { message["encoding"] = .string(encoding.rawValue) }
    if let geometry { message["geometry"] = .string(geometry.rawValue) }
    return try request(.subscribe, message).object.int("subscription")
  }

  /// `resync`: asks for a key frame of every session a delta subscription follows.
  public func resync(subscription: Int) throws(ClientError) {
    try request(.resync, ["subscription": .number(Double(subscription))])
  }

  /// `unsubscribe`: stops a subscription.
  public func unsubscribe(subscription: Int) throws(ClientError) {
    try request(.unsubscribe, ["subscription": .number(Double(subscription))])
  }

  /// Sends an interactive control (`update`, `seek`, `pause`, `resume`, `reverse`, `finish`,
  /// `cancel`) to `session`.
  /// - Returns: the session's state and progress after it.
  public func control(session: String, action: ControlAction) throws(ClientError)
    -> ControlResult
  {
    try ControlResult(request(action.request(session: session)))
  }

  /// `end` (admin): cancels `session` at once.
  public func end(session: String) throws(ClientError) {
    try request(.end, ["session": .string(session)])
  }

  /// `sessions`: the sessions still running.
  public func sessions() throws(ClientError) -> [SessionInfo] {
    try SessionInfo.list(request(.sessions))
  }

  /// `stats`: the daemon's counters.
  public func stats() throws(ClientError) -> Stats {
    try Stats(request(.stats))
  }

  /// `reload` (admin): re-reads the config and rescans plugins.
  /// - Returns: the number of animators loaded afterwards.
  public func reload() throws(ClientError) -> Int {
    try request(.reload).object.int("animators")
  }

  /// Reads events until `session` completes, collecting its frames.
  ///
  /// Events about other sessions are skipped.
  /// - Parameter timeout: the longest wait for any one event; `nil` waits for ever.
  /// - Returns: the session's frames in arrival order and whether it finished (true) or was
  ///   cancelled (false).
  /// - Throws: ``ClientError/Code/closed`` when the daemon stops first, and the errors of
  ///   ``nextEvent(timeout:)``.
  public func framesUntilComplete(session: String, timeout: Duration? = .seconds(30))
    throws(ClientError) -> (frames: [FrameEvent], finished: Bool)
  {
    var frames: [FrameEvent] = []
    while true {
      switch try nextEvent(timeout: timeout) {
      case .frame(let frame) where frame.session == session:
        frames.append(frame)
      case .complete(let complete) where complete.session == session:
        return (frames, complete.finished)
      case .stopping:
        throw ClientError(.closed, "the daemon is stopping")
      default:
        continue
      }
    }
  }
}
