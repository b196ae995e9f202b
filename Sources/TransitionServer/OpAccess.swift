import TransitionWire

/// Who may call an op: the "who" column of docs/protocol.md's op table.
public enum OpAccess: String, Sendable, CaseIterable {
  /// Every connected peer.
  case anyone = "anyone"
  /// Admins only (``AdminPolicy``); any other peer gets `forbidden` before the op's members
  /// are read.
  case admin = "admin"
  /// A peer of the session's user (its owner, or another connection of the same uid) or an
  /// admin; any other peer gets `forbidden` once the session is found.
  case sessionUserOrAdmin = "the session's user or an admin"
}
