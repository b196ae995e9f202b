import Glibc
import Testing
import TransitionServer

@testable import DaemonSupport

/// Resolving the admin group from the group and user databases, with `ERANGE` retried on a
/// growing buffer.
@Suite struct AdminGroupTests {
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

  @Test func resolvesTheOwnGroupsID() throws {
    let name = try #require(Self.ownGroupName())
    let group = try #require(AdminGroup.resolve(named: name))
    #expect(group.gid == getgid())
    #expect(group.name == name)
    let policy = AdminPolicy(daemonUID: 4_242, group: group)
    #expect(policy.isAdmin(PeerIdentity(pid: 1, uid: 3_999_999_999, gid: getgid())))
  }

  @Test(.enabled(if: AdminGroupTests.groupWithListedMember() != nil))
  func resolvesListedMembersToTheirUIDs() throws {
    let listed = try #require(Self.groupWithListedMember())
    let group = try #require(AdminGroup.resolve(named: listed.group))
    #expect(group.memberUIDs.contains(listed.uid))
    let policy = AdminPolicy(daemonUID: 4_242, group: group)
    #expect(policy.isAdmin(PeerIdentity(pid: 1, uid: listed.uid, gid: listed.gid)))
  }

  @Test func aGroupThatDoesNotExistResolvesToNothing() {
    #expect(AdminGroup.resolve(named: "no-such-group-for-transitiond") == nil)
    #expect(UserDatabase.uid(ofUser: "no-such-user-for-transitiond") == nil)
  }

  @Test func rootResolvesToUIDZero() {
    #expect(UserDatabase.uid(ofUser: "root") == 0)
  }

  /// A lookup that needs 40,000 bytes gets them: the buffer doubles on every `ERANGE`.
  @Test func aBufferTooSmallIsRetriedTwiceAsLarge() {
    var sizes: [Int] = []
    let found: String? = UserDatabase.withGrowingBuffer(initialSize: 1_000) { buffer in
      sizes.append(buffer.count)
      return buffer.count < 40_000 ? .failed(ERANGE) : .found("entry")
    }
    #expect(found == "entry")
    #expect(sizes == [1_024, 2_048, 4_096, 8_192, 16_384, 32_768, 65_536])
  }

  @Test func aLookupThatNeverFitsOrFailsOtherwiseGivesNothing() {
    var attempts = 0
    let neverFits: Int? = UserDatabase.withGrowingBuffer(initialSize: -1) { _ in
      attempts += 1
      return .failed(ERANGE)
    }
    #expect(neverFits == nil)
    #expect(attempts == 15)  // 1 KiB to 16 MiB
    let failing: Int? = UserDatabase.withGrowingBuffer(initialSize: 4_096) { _ in .failed(EIO) }
    #expect(failing == nil)
  }
}
