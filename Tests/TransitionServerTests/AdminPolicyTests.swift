import Glibc
import Testing

@testable import TransitionServer

/// Who may use the admin ops: root, the daemon's own user, and the admin group's members
/// (primary group or listed member); everyone else, and a peer without an identity, is
/// refused. The rule is pure: the group is resolved beforehand (``AdminGroupTests``).
@Suite struct AdminPolicyTests {
  /// A daemon uid that is neither root nor the test's own user.
  private static let daemonUID: UInt32 = 4_242
  /// A uid that no user has on this machine.
  private static let strangerUID: UInt32 = 3_999_999_999
  /// An admin group as resolved: gid 500, listing the user 1_001.
  private static let group = AdminGroup(name: "wheel", gid: 500, memberUIDs: [1_001])

  private func peer(uid: UInt32, gid: UInt32) -> PeerIdentity {
    PeerIdentity(pid: 1, uid: uid, gid: gid)
  }

  @Test func rootIsAnAdmin() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, group: nil)
    #expect(policy.isAdmin(peer(uid: 0, gid: 9_999)))
  }

  @Test func theDaemonsOwnUserIsAnAdmin() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, group: nil)
    #expect(policy.isAdmin(peer(uid: Self.daemonUID, gid: 9_999)))
  }

  @Test func othersAreRefusedWithoutAnAdminGroup() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, group: nil)
    #expect(!policy.isAdmin(peer(uid: Self.strangerUID, gid: getgid())))
    #expect(!policy.isAdmin(peer(uid: Self.daemonUID + 1, gid: 0)))
  }

  @Test func aPeerWithoutAnIdentityIsRefused() {
    #expect(!AdminPolicy(daemonUID: Self.daemonUID, group: nil).isAdmin(nil))
    #expect(!AdminPolicy(daemonUID: 0, group: Self.group).isAdmin(nil))
  }

  @Test func membersOfTheAdminGroupByPrimaryGroupOrListingAreAdmins() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, group: Self.group)
    #expect(policy.isAdmin(peer(uid: Self.strangerUID, gid: 500)))
    #expect(policy.isAdmin(peer(uid: 1_001, gid: 1_001)))
    #expect(!policy.isAdmin(peer(uid: 1_002, gid: 1_002)))
    #expect(!policy.isAdmin(peer(uid: Self.strangerUID, gid: 501)))
  }

  /// A daemon running as root admits root, the group and nobody else: its uid 0 makes only
  /// uid 0 an admin, not every uid.
  @Test func aDaemonRunningAsRootAdmitsOnlyRootAndTheGroup() {
    let withoutGroup = AdminPolicy(daemonUID: 0, group: nil)
    #expect(withoutGroup.isAdmin(peer(uid: 0, gid: 0)))
    #expect(!withoutGroup.isAdmin(peer(uid: 1_000, gid: 1_000)))
    #expect(!withoutGroup.isAdmin(peer(uid: Self.strangerUID, gid: 0)))
    let withGroup = AdminPolicy(daemonUID: 0, group: Self.group)
    #expect(withGroup.isAdmin(peer(uid: 1_001, gid: 1_001)))
    #expect(withGroup.isAdmin(peer(uid: 1_003, gid: 500)))
    #expect(!withGroup.isAdmin(peer(uid: 1_000, gid: 1_000)))
  }
}
