/// The ops of protocol v1 (docs/protocol.md, "Ops"): the one list of op names for the daemon,
/// the client, `transitionctl` and tests.
public enum Op: String, CaseIterable, Sendable {
  case hello, animators, routes, route, begin, subscribe, unsubscribe, resync
  case update, pause, resume, reverse, seek, finish, cancel
  case end, sessions, stats, reload

  /// The interactive controls of a running session (docs/protocol.md, "Interactive control").
  public static let controls: [Op] = [.update, .pause, .resume, .reverse, .seek, .finish, .cancel]

  /// Whether only admins may use it: `route`, `reload` and `end`.
  public var isAdmin: Bool { self == .route || self == .reload || self == .end }

  /// Whether it is an interactive control of a session.
  public var isControl: Bool { Self.controls.contains(self) }
}
