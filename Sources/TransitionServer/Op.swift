/// The op table of protocol v1 (docs/protocol.md, "Ops"): every op's name and who may use it.
///
/// A request's `op` string is looked up here and nowhere else; ``Command`` then decodes the
/// op's fields, and ``ServerCore`` runs the one handler of each command.
enum Op: String, CaseIterable, Sendable {
  case hello, animators, routes, route, begin, subscribe, unsubscribe
  case update, pause, resume, reverse, seek, finish, cancel
  case end, sessions, stats, reload

  /// Whether only admins may use it (``AdminPolicy``).
  var isAdmin: Bool {
    switch self {
    case .route, .reload, .end: true
    default: false
    }
  }
}
