import TransitionWire

/// Sends each request to its handler and turns a thrown `WireError` into the error reply.
///
/// Admin ops (`route`, `reload`, `end`) are checked against ``AdminPolicy`` first and refused
/// with `forbidden`; every other op is open to anyone who can reach the socket.
struct RequestRouter {
  /// Every op of protocol v1.
  enum Op: String, CaseIterable {
    case hello, animators, routes, route, begin, subscribe, unsubscribe
    case update, pause, resume, reverse, seek, finish, cancel
    case end, sessions, stats, reload

    /// Whether only admins may use it.
    var isAdmin: Bool { self == .route || self == .reload || self == .end }
  }

  unowned let daemon: Daemon

  /// Handles `request`; exactly one reply is written for it.
  func route(_ request: Request, from client: ClientConnection) {
    do throws(WireError) {
      guard let op = Op(rawValue: request.op) else {
        throw WireError(.unknownOp, "unknown op \"\(request.op)\"")
      }
      if op.isAdmin, !daemon.adminPolicy.isAdmin(client.credentials) {
        daemon.logger.warn("refused admin op \(op.rawValue) from \(client.peerDescription)")
        throw WireError(
          .forbidden,
          "\(op.rawValue) is an admin op: it needs uid 0, the daemon's uid or the admin group")
      }
      switch op {
      case .hello: daemon.handleHello(request, from: client)
      case .animators: daemon.handleAnimators(request, from: client)
      case .routes: daemon.handleRoutes(request, from: client)
      case .sessions: daemon.handleSessions(request, from: client)
      case .stats: daemon.handleStats(request, from: client)
      case .route: try daemon.handleRoute(request, from: client)
      case .reload: try daemon.handleReload(request, from: client)
      case .begin: try daemon.handleBegin(request, from: client)
      case .end: try daemon.handleEnd(request, from: client)
      case .subscribe: try daemon.handleSubscribe(request, from: client)
      case .unsubscribe: try daemon.handleUnsubscribe(request, from: client)
      case .update, .pause, .resume, .reverse, .seek, .finish, .cancel:
        try daemon.handleControl(op.rawValue, request, from: client)
      }
    } catch {
      client.fail(id: request.id, error)
    }
  }
}
