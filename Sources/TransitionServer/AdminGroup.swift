/// The config's `adminGroup`, resolved once from the group and user databases (the daemon
/// does it, `AdminGroup.resolve(named:)` in DaemonSupport): its gid and the uids of the users
/// it lists as members.
public struct AdminGroup: Equatable, Sendable {
  /// The group's name, as the config gives it.
  public let name: String
  /// The group's id: a peer whose primary group it is counts as a member.
  public let gid: UInt32
  /// The uids of the listed members that name an existing user.
  public let memberUIDs: Set<UInt32>

  public init(name: String, gid: UInt32, memberUIDs: Set<UInt32>) {
    self.name = name
    self.gid = gid
    self.memberUIDs = memberUIDs
  }
}
