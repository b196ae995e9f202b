import EventLoop
import Glibc

/// Who may use the admin ops (`route`, `reload`, `end`): root, the daemon's own user, and
/// members of the configured admin group (by primary group or by membership).
struct AdminPolicy {
  /// The daemon's user id.
  let daemonUID: uid_t
  /// The admin group's name; empty for none.
  let groupName: String

  /// Whether the peer with `credentials` is an admin. A peer without credentials is not.
  func isAdmin(_ credentials: PeerCredentials?) -> Bool {
    guard let credentials else { return false }
    if credentials.uid == 0 || credentials.uid == daemonUID { return true }
    guard !groupName.isEmpty, let group = Self.lookUpGroup(named: groupName) else { return false }
    if credentials.gid == group.gid { return true }
    guard let user = Self.userName(of: credentials.uid) else { return false }
    return group.members.contains(user)
  }

  /// Whether `name` names an existing group.
  static func groupExists(_ name: String) -> Bool {
    lookUpGroup(named: name) != nil
  }

  private static func lookUpGroup(named name: String) -> (gid: gid_t, members: [String])? {
    var entry = group()
    var result: UnsafeMutablePointer<group>? = nil
    var buffer = [CChar](repeating: 0, count: 16_384)
    guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
      return nil
    }
    var members: [String] = []
    if var cursor = entry.gr_mem {
      while let member = cursor.pointee {
        members.append(String(cString: member))
        cursor += 1
      }
    }
    return (entry.gr_gid, members)
  }

  private static func userName(of uid: uid_t) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>? = nil
    var buffer = [CChar](repeating: 0, count: 16_384)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil,
      let name = entry.pw_name
    else { return nil }
    return String(cString: name)
  }
}
