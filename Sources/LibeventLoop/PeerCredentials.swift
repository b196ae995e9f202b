import CLibevent
import Glibc
import UnixIO

/// The process at the other end of a Unix socket, as the kernel recorded it at `connect`
/// (`SO_PEERCRED`).
public struct PeerCredentials: Equatable, Hashable, Sendable {
  /// The peer's process id.
  public let pid: pid_t
  /// The peer's effective user id.
  public let uid: uid_t
  /// The peer's effective group id.
  public let gid: gid_t

  /// Creates credentials from their parts.
  public init(pid: pid_t, uid: uid_t, gid: gid_t) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// Reads the credentials of the peer of the connected AF_UNIX socket `descriptor`.
  ///
  /// - Throws: ``SystemError`` from `getsockopt`.
  public init(ofSocket descriptor: Int32) throws(SystemError) {
    var credentials = clibevent_peer_credentials()
    try retryingInterrupts("getsockopt(SO_PEERCRED)") {
      clibevent_get_peer_credentials(descriptor, &credentials)
    }
    self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
  }
}
