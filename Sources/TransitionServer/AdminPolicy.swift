/// Who may use the admin ops (`route`, `reload`, `end`): root, the daemon's own user, and
/// members of the configured admin group, by primary group or by membership
/// (docs/protocol.md, "Admins").
///
/// A pure rule over values resolved when the config is loaded or reloaded
/// (``AdminGroup/resolve(named:)``): deciding looks nothing up, so it costs nothing per
/// request, and changes to the group database take effect at the next reload.
public struct AdminPolicy: Equatable, Sendable {
  /// The daemon's user id.
  public let daemonUID: UInt32
  /// The admin group as resolved; nil for none.
  public let group: AdminGroup?

  public init(daemonUID: UInt32, group: AdminGroup?) {
    self.daemonUID = daemonUID
    self.group = group
  }

  /// Whether the peer `identity` is an admin. A peer without an identity is not.
  public func isAdmin(_ identity: PeerIdentity?) -> Bool {
    guard let identity else { return false }
    if identity.uid == 0 || identity.uid == daemonUID { return true }
    guard let group else { return false }
    return identity.gid == group.gid || group.memberUIDs.contains(identity.uid)
  }
}
