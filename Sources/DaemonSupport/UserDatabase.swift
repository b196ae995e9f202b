import Glibc

/// Reads of the group and user databases through the reentrant `getgrnam_r` and
/// `getpwnam_r`.
///
/// Each call owns its scratch buffer; the strings the C entry points into are copied out
/// before the buffer is released, so no pointer outlives its call. A buffer too small for the
/// entry (`ERANGE`, as a group with many members gives) is retried with twice the size, up to
/// ``maximumBufferSize``.
enum UserDatabase {
  /// The largest scratch buffer tried, in bytes: 16 MiB.
  static let maximumBufferSize = 16 << 20

  /// A group entry: its id and the names it lists as members.
  struct GroupEntry: Equatable {
    var gid: UInt32
    var members: [String]
  }

  /// The group called `name`; nil when there is none or the database cannot be read.
  static func groupEntry(named name: String) -> GroupEntry? {
    withGrowingBuffer(initialSize: sysconf(Int32(_SC_GETGR_R_SIZE_MAX))) { buffer in
      var entry = Glibc.group()
      var result: UnsafeMutablePointer<group>? = nil
      let status = getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
      guard status == 0 else { return .failed(status) }
      guard result != nil else { return .found(nil) }
      var members: [String] = []
      if var cursor = entry.gr_mem {
        while let member = cursor.pointee {
          members.append(String(cString: member))
          cursor += 1
        }
      }
      return .found(GroupEntry(gid: entry.gr_gid, members: members))
    }
  }

  /// The uid of the user called `name`; nil when there is none.
  static func uid(ofUser name: String) -> UInt32? {
    withGrowingBuffer(initialSize: sysconf(Int32(_SC_GETPW_R_SIZE_MAX))) { buffer in
      var entry = passwd()
      var result: UnsafeMutablePointer<passwd>? = nil
      let status = getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
      guard status == 0 else { return .failed(status) }
      return .found(result == nil ? nil : entry.pw_uid)
    }
  }

  /// The uid and primary gid of the user called `name`; nil when there is none.
  static func account(ofUser name: String) -> (uid: UInt32, gid: UInt32)? {
    withGrowingBuffer(initialSize: sysconf(Int32(_SC_GETPW_R_SIZE_MAX))) { buffer in
      var entry = passwd()
      var result: UnsafeMutablePointer<passwd>? = nil
      let status = getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
      guard status == 0 else { return .failed(status) }
      return .found(result == nil ? nil : (entry.pw_uid, entry.pw_gid))
    }
  }

  /// What one lookup attempt with one buffer gave.
  enum Attempt<Value> {
    case found(Value?)
    case failed(Int32)
  }

  /// Runs `lookUp` with a fresh buffer of `initialSize` bytes (a 1 KiB minimum when the system
  /// gives no hint), doubling it while the lookup fails with `ERANGE` and retrying on `EINTR`.
  ///
  /// - Returns: The value found; nil when there is none, on another error, or when even
  ///   ``maximumBufferSize`` bytes are too few.
  static func withGrowingBuffer<Value>(
    initialSize: Int, _ lookUp: (UnsafeMutableBufferPointer<CChar>) -> Attempt<Value>
  ) -> Value? {
    var size = max(initialSize, 1024)
    while size <= maximumBufferSize {
      var buffer = [CChar](repeating: 0, count: size)
      let attempt = buffer.withUnsafeMutableBufferPointer { lookUp($0) }
      switch attempt {
      case .found(let value): return value
      case .failed(ERANGE): size *= 2
      case .failed(EINTR): continue
      case .failed: return nil
      }
    }
    return nil
  }
}
