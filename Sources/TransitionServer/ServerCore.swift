import FrameStreaming
import PluginValues
import TransitionJSON
import TransitionKit
import TransitionWire

/// The server without its sockets: clients, sessions, routes, the animator source, stats and
/// the op table (docs/architecture.md).
///
/// It sees each client only as a ``Peer`` and time only through a ``ServerClock``, so the
/// daemon (or a test with fake peers and a fake clock) drives it: ``connect(_:)`` a peer,
/// hand it each request line with ``receive(line:from:)``, and report ``peerDrained(_:)``,
/// ``peerSentOverlongLine(_:)`` and ``peerClosed(_:)``.
///
/// Each line is parsed once (`Request`), its op's record looked up once (``OpRecord``), and
/// the record's handler reads the fields it needs and runs; every failure on the way is the
/// request's single error reply. Everything runs on one thread: the core is not `Sendable`.
public final class ServerCore {
  /// The server's version, reported by `hello` and `transitiond --version`.
  public static let version = "0.1.0"
  /// The wire protocol version, reported by `hello`.
  public static let protocolVersion = 1

  /// The configuration in force.
  public private(set) var config: ServerConfig
  let clock: ServerClock
  /// The source's animators, with the fallback standing in when the source lacks it.
  let animators: AnimatorsWithFallback
  public let logger: Logger
  let stats: ServerStats
  var routes: AnimatorRoutes
  private(set) var adminPolicy: AdminPolicy
  let sessions = SessionTable()
  let frameClocks: FrameClocks
  /// What sessions with equal timelines share of their renderers.
  let compiledTimelines: CompiledTimelines
  private(set) var clients: [UInt64: Client] = [:]
  /// Connections counted in all and per uid (`maxClients`, `maxClientsPerUser`).
  private var clientQuota = ClientQuota()
  /// Sessions counted in all, per client and per uid, from the moment a `begin` is accepted
  /// (while its animator works, too) until the session completes.
  var sessionQuota = SessionQuota()
  private(set) var isStopping = false
  private var lastSubscriptionID = 0
  /// Runs the `reload` op: re-reads the config, calls ``apply(config:adminPolicy:)``, rescans
  /// the plugins, and calls its argument once, on the loop, when the rescan is done: with the
  /// number of animators loaded then and the scan's warnings and errors (the reply's
  /// `diagnostics`), or `reload_failed`. It may answer at once (a config that does not load).
  /// The requesting client's later requests wait for the answer. Nil refuses `reload`.
  public var reloadHandler: ((@escaping (Result<ReloadOutcome, WireError>) -> Void) -> Void)?
  /// The animator that serves a `begin` its chosen animator could not (``TimelineRequest``),
  /// and that is listed and served under its name when the source has none.
  public let fallbackAnimator: FallbackAnimator
  /// The viewer's URL with its token, when the daemon's HTTP listener is on; `hello` gives it
  /// to the clients of the Unix socket (whose permissions already decide who may watch).
  public var viewerURL: String?
  /// The process id `hello` reports: the daemon's, which it supplies (the core asks the
  /// system nothing).
  let processID: Int32

  /// A core with no clients and no sessions.
  ///
  /// - Parameters:
  ///   - animators: Where the animators come from (the plugin host, or an in-process source).
  ///   - fallback: The animator that serves whenever the chosen one cannot: the daemon's
  ///     built-in `default-slide`.
  ///   - processID: The pid `hello` reports (the daemon's `getpid()`).
  public init(
    config: ServerConfig, adminPolicy: AdminPolicy, animators: AnimatorSource,
    fallback: FallbackAnimator, clock: ServerClock, logger: Logger, processID: Int32
  ) {
    self.processID = processID
    fallbackAnimator = fallback
    self.config = config
    self.adminPolicy = adminPolicy
    self.animators = AnimatorsWithFallback(animators, fallback: fallback)
    self.clock = clock
    self.logger = logger
    stats = ServerStats(startTime: clock.now)
    routes = AnimatorRoutes(config.routes)
    frameClocks = FrameClocks(clock: clock, stats: stats.frames)
    compiledTimelines = CompiledTimelines(stats: stats)
  }

  /// Puts a reloaded configuration in force: routes are reset to its routes, limits apply to
  /// requests from now on (line length and subscriber limits to new peers), the admin rule
  /// changes. Sessions, subscriptions and peers stay.
  public func apply(config: ServerConfig, adminPolicy: AdminPolicy) {
    self.config = config
    self.adminPolicy = adminPolicy
    logger.level = config.logLevel
    routes = AnimatorRoutes(config.routes)
  }

  /// The animators served, in the order the `animators` reply lists them (the fallback last
  /// when the source has none of its name).
  public var servedAnimators: [RegisteredAnimator] { animators.animators }

  /// The number of running sessions.
  public var sessionCount: Int { sessions.count }

  /// The number of connected peers.
  public var clientCount: Int { clients.count }

  /// The core's clock now, in seconds (the `clock` op's `now`).
  public var currentTime: Double { clock.now }

  // MARK: Peers

  /// Takes a newly connected peer, or refuses it with a `limit_exceeded` error line naming
  /// the limit when `limits.maxClients` are connected or its uid has
  /// `limits.maxClientsPerUser` (``ClientQuota``); closes it when stopping.
  ///
  /// - Returns: True when the peer was taken.
  @discardableResult
  public func connect(_ peer: any Peer & FrameOutput) -> Bool {
    guard !isStopping else {
      peer.close()
      return false
    }
    if let refusal = clientQuota.admit(uid: peer.identity?.uid, limits: config.limits) {
      let who = peer.identity.map { " (pid \($0.pid), uid \($0.uid))" } ?? ""
      logger.warnRefusal("refusing client \(peer.id)\(who): \(refusal.message)")
      peer.send(WireMessage.failure(id: nil, refusal))
      peer.closeAfterFlush()
      return false
    }
    let client = Client(
      peer: peer, output: peer, limits: config.limits, stats: stats, logger: logger, clock: clock)
    clients[peer.id] = client
    stats.connectionsCurrent += 1
    stats.connectionsTotal += 1
    logger.debug("\(client) connected")
    return true
  }

  /// Handles one request line (without its `\n`) from `peer`; exactly one reply is sent for
  /// it, after the replies of the peer's earlier requests.
  public func receive(line: [UInt8], from peer: Peer) {
    guard let client = clients[peer.id] else { return }
    // A reply never waits for a frame clock's deadline: frames held for it leave with the
    // reply, at the end of this loop iteration, a little early.
    client.endHold()
    stats.bytesReceived += line.count + 1
    if client.isWaitingForAnimator {
      client.waitingLines.append(line)
      return
    }
    handle(line: line, from: client)
  }

  /// The peer's queued output fell low: coalesced frames and virtual streams go on.
  public func peerDrained(_ peer: Peer) {
    clients[peer.id]?.drained()
  }

  /// The peer sent a line longer than `limits.maxLineBytes`: it gets `line_too_long` and is
  /// closed after the reply is sent.
  public func peerSentOverlongLine(_ peer: Peer) {
    guard let client = clients[peer.id] else { return }
    let limit = config.limits.maxLineBytes
    logger.warnRefusal("\(client) sent a line longer than \(limit) bytes; closing")
    client.fail(
      id: nil,
      WireError(.lineTooLong, "a request line is longer than the limit of \(limit) bytes"))
    peer.closeAfterFlush()
  }

  /// The peer left a request line unfinished for `seconds` (`limits.partialLineSeconds`): it
  /// gets `limit_exceeded` and is closed after the reply is sent.
  public func peerLeftLineUnfinished(_ peer: Peer, seconds: Double) {
    guard let client = clients[peer.id] else { return }
    logger.warnRefusal(
      "\(client) left a request line unfinished for more than \(seconds) s; closing")
    client.fail(
      id: nil,
      WireError(
        .limitExceeded,
        "a request line stayed unfinished for more than \(seconds) s "
          + "(limits.partialLineSeconds); closing the connection"))
    peer.closeAfterFlush()
  }

  /// Forgets a peer that ended: its subscriptions end, and the sessions it began are handled
  /// as ``Session/ownerLeft(at:)`` says (they count against its uid until they complete).
  ///
  /// - Parameter reason: Why it ended, for the debug log; nil for an orderly close.
  public func peerClosed(_ peer: Peer, reason: String? = nil) {
    guard let client = clients.removeValue(forKey: peer.id) else { return }
    clientQuota.release(uid: client.identity?.uid)
    sessionQuota.clientLeft(client.id)
    stats.connectionsCurrent -= 1
    client.waitingLines = []
    for subscription in client.subscriptions {
      cancel(subscription, of: client)
    }
    if !isStopping {
      let now = clock.now
      for session in sessions.all where session.ownerPeerID == client.id {
        session.ownerLeft(at: now)
      }
    }
    logger.debug("\(client) " + (reason.map { "failed: \($0)" } ?? "disconnected"))
  }

  // MARK: Shutdown

  /// Stops every session's timers and every frame clock, sends `stopping` to every peer and
  /// closes each after its output is sent. New peers are refused from now on.
  public func shutDown(reason: String) {
    guard !isStopping else { return }
    isStopping = true
    logger.info("stopping (\(reason)): \(clients.count) clients, \(sessions.count) sessions")
    // The frame clocks first: what they hold for a deadline leaves now, before `stopping`.
    frameClocks.removeAll()
    for session in sessions.all { session.shutDown() }
    let stopping = WireMessage.event("stopping")
    let connected = Array(clients.values)
    for client in connected { client.send(stopping) }
    for client in connected { client.peer.closeAfterFlush() }
  }

  // MARK: Requests

  /// Parses one line, looks its op's record up, checks who may call it and its members, and
  /// runs its handler.
  func handle(line: [UInt8], from client: Client) {
    var id: RequestID?
    do throws(WireError) {
      // The request sent most, read without a tree when its meaning is certain: the same
      // control as the `update` record's (UpdateLineTests).
      if let update = line.withUnsafeBufferPointer(UpdateLine.init) {
        id = update.id
        try control(
          .update(progress: update.progress, touch: update.touch), session: update.session,
          id: id, from: client)
        return
      }
      let request: Request
      do {
        request = try Request(line: line)
      } catch {
        client.fail(id: error.id, error.error)
        return
      }
      id = request.id
      let record = try OpRecord.named(request.op)
      try requireAccess(record, from: client)
      try request.allowOnly(record.members, of: record.op)
      try record.handler(self, request, id, client)
    } catch {
      client.fail(id: id, error)
    }
  }

  /// Refuses an ``OpAccess/admin`` op to a client that is no admin; the session's user is
  /// checked by the control handler, once the session is found.
  private func requireAccess(_ record: OpRecord, from client: Client) throws(WireError) {
    guard record.access == .admin, !adminPolicy.isAdmin(client.identity) else { return }
    let name = record.op.rawValue
    logger.warnRefusal("refused admin op \(name) from \(client)")
    throw WireError(
      .forbidden, "\(name) is an admin op: it needs uid 0, the daemon's uid or the admin group")
  }

  /// A `begin` of `client` was answered: its waiting requests run now, in order, until one
  /// waits again.
  func resumeWaitingRequests(of client: Client) {
    client.isWaitingForAnimator = false
    while !client.isWaitingForAnimator, client.isOpen, !client.waitingLines.isEmpty {
      handle(line: client.waitingLines.removeFirst(), from: client)
    }
  }

  // MARK: Shared by the handlers

  /// A fresh subscription id, unique for the core's lifetime.
  func makeSubscriptionID() -> Int {
    lastSubscriptionID += 1
    return lastSubscriptionID
  }

  /// Ends `subscription` and forgets it.
  func cancel(_ subscription: Subscription, of client: Client) {
    subscription.cancel()
    sessions.removeEverySessionSubscription(subscription)
    client.subscriptionEnded(subscription)
  }

  /// The running session called `id`.
  ///
  /// - Throws: `unknown_session` when none runs.
  func existingSession(_ id: String) throws(WireError) -> Session {
    guard let session = sessions[id] else {
      throw WireError(.unknownSession, "no session named \(id)")
    }
    return session
  }

  /// The loaded animator named `name`.
  ///
  /// - Throws: `unknown_animator` when none is loaded.
  func loadedAnimator(named name: String) throws(WireError) -> RegisteredAnimator {
    guard let animator = animators.animator(named: name) else {
      let loaded = animators.animators.map(\.name).joined(separator: ", ")
      throw WireError(.unknownAnimator, "no animator named \(name) is loaded (loaded: \(loaded))")
    }
    return animator
  }

  /// `animator` itself when it serves `operation`.
  ///
  /// - Throws: `unsupported_operation` naming what it serves.
  func requireServes(_ animator: RegisteredAnimator, _ operation: TransitionOperation)
    throws(WireError)
  {
    if animator.operations.isEmpty, let error = animator.error {
      throw WireError(
        .unsupportedOperation, "animator \(animator.name) serves nothing: \(error)")
    }
    guard animator.serves(operation) else {
      throw WireError(
        .unsupportedOperation,
        "animator \(animator.name) does not serve \(operation.rawValue) (it serves "
          + animator.orderedOperations.map(\.rawValue).joined(separator: ", ") + ")")
    }
  }
}

extension ServerCore {
  /// Checks a `begin`'s `params` against the animator's knobs.
  ///
  /// - Throws: `bad_request` naming a parameter the animator does not have, or a value outside
  ///   its range.
  func requireParameters(_ params: [String: Double], of animator: RegisteredAnimator)
    throws(WireError)
  {
    for name in params.keys.sorted() {
      guard let parameter = animator.parameters.first(where: { $0.name == name }) else {
        let known = animator.parameters.map(\.name).joined(separator: ", ")
        throw WireError(
          .badRequest,
          "params.\(name) is not a parameter of \(animator.name)"
            + (known.isEmpty ? " (it has none)" : " (it has \(known))"))
      }
      let value = params[name]!
      guard parameter.range.contains(value) else {
        throw WireError(
          .badRequest,
          "params.\(name) must be in [\(JSONValue.format(parameter.range.lowerBound)), "
            + "\(JSONValue.format(parameter.range.upperBound))], got \(JSONValue.format(value))")
      }
    }
  }
}

@available(*, unavailable) extension ServerCore: Sendable {}
