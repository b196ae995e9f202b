import EventLoop
import Glibc
import Testing

@testable import TransitionServer

/// Who may use the admin ops: root, the daemon's own user, and the admin group's members
/// (primary group or listed member); everyone else, and a peer without credentials, is
/// refused.
@Suite struct AdminPolicyTests {
  /// A daemon uid that is neither root nor the test's own user.
  private static let daemonUID: uid_t = 4_242

  /// A uid that no user has on this machine.
  private static let strangerUID: uid_t = 3_999_999_999

  /// The name of the test process's primary group, read from the group database.
  private static func ownGroupName() -> String? {
    guard let entry = getgrgid(getgid()), let name = entry.pointee.gr_name else { return nil }
    return String(cString: name)
  }

  /// A group that lists an existing user as a member whose primary group is another one:
  /// the group's name and the member's uid and primary gid.
  private static func groupWithListedMember() -> (group: String, uid: uid_t, gid: gid_t)? {
    setgrent()
    defer { endgrent() }
    while let entry = getgrent() {
      guard let name = entry.pointee.gr_name, var cursor = entry.pointee.gr_mem else { continue }
      while let member = cursor.pointee {
        if let user = getpwnam(member), user.pointee.pw_gid != entry.pointee.gr_gid {
          return (String(cString: name), user.pointee.pw_uid, user.pointee.pw_gid)
        }
        cursor += 1
      }
    }
    return nil
  }

  private func credentials(uid: uid_t, gid: gid_t) -> PeerCredentials {
    PeerCredentials(pid: 1, uid: uid, gid: gid)
  }

  @Test func rootIsAnAdmin() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: "")
    #expect(policy.isAdmin(credentials(uid: 0, gid: 9_999)))
  }

  @Test func theDaemonsOwnUserIsAnAdmin() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: "")
    #expect(policy.isAdmin(credentials(uid: Self.daemonUID, gid: 9_999)))
  }

  @Test func othersAreRefusedWithoutAnAdminGroup() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: "")
    #expect(!policy.isAdmin(credentials(uid: Self.strangerUID, gid: getgid())))
    #expect(!policy.isAdmin(credentials(uid: Self.daemonUID + 1, gid: 0)))
  }

  @Test func aPeerWithoutCredentialsIsRefused() {
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: "")
    #expect(!policy.isAdmin(nil))
  }

  @Test func membersOfTheAdminGroupByPrimaryGroupAreAdmins() throws {
    let group = try #require(Self.ownGroupName())
    #expect(getpwuid(Self.strangerUID) == nil)
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: group)
    #expect(policy.isAdmin(credentials(uid: Self.strangerUID, gid: getgid())))
    #expect(!policy.isAdmin(credentials(uid: Self.strangerUID, gid: getgid() &+ 7_777)))
  }

  @Test(.enabled(if: AdminPolicyTests.groupWithListedMember() != nil))
  func listedMembersOfTheAdminGroupAreAdmins() throws {
    let listed = try #require(Self.groupWithListedMember())
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: listed.group)
    #expect(policy.isAdmin(credentials(uid: listed.uid, gid: listed.gid)))
    if listed.uid != 0 {
      let noGroup = AdminPolicy(daemonUID: Self.daemonUID, groupName: "")
      #expect(!noGroup.isAdmin(credentials(uid: listed.uid, gid: listed.gid)))
    }
  }

  @Test func anAdminGroupThatDoesNotExistAdmitsNobodyElse() {
    let name = "no-such-group-for-transitiond"
    #expect(!AdminPolicy.groupExists(name))
    let policy = AdminPolicy(daemonUID: Self.daemonUID, groupName: name)
    #expect(!policy.isAdmin(credentials(uid: Self.strangerUID, gid: getgid())))
    #expect(policy.isAdmin(credentials(uid: 0, gid: 0)))
  }

  @Test func groupExistsFindsTheOwnGroup() throws {
    #expect(AdminPolicy.groupExists(try #require(Self.ownGroupName())))
  }
}
