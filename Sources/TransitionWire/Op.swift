/// The ops of protocol v1 (docs/protocol.md, "Ops"): the one list of op names for the daemon,
/// the client, `transitionctl` and tests. Who may call each, the members it takes and its
/// handler are the server's op records (`OpRecord` in TransitionServer).
public enum Op: String, CaseIterable, Sendable {
  case hello, animators, routes, route, begin, subscribe, unsubscribe, resync
  case display, presented, frame, clock
  case update, pause, resume, reverse, seek, finish, cancel, release
  case end, sessions, stats, reload
}
