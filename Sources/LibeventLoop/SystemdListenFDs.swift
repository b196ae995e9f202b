import Glibc
import UnixIO

/// systemd's socket activation without libsystemd (`sd_listen_fds(3)`): when `LISTEN_PID` is
/// this process and `LISTEN_FDS` is 1, file descriptor 3 is the listening socket systemd
/// created and owns (its path, mode and directory come from the `.socket` unit).
public enum SystemdListenFDs {
  /// The first passed descriptor (`SD_LISTEN_FDS_START`).
  public static let firstDescriptor: Int32 = 3
  /// The variables systemd sets; all are removed once read, so children never see them.
  public static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

  /// Why the passed descriptors cannot be used: one line naming the variables.
  public struct Refusal: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// The listening socket systemd passed to this process, or nil when none was passed
  /// (`LISTEN_PID` unset or another process's). Unsets the variables either way.
  ///
  /// - Throws: ``Refusal`` when `LISTEN_FDS` is not 1 or fd 3 is not a listening `AF_UNIX`
  ///   stream socket.
  public static func take(
    environment: [String: String], pid: pid_t = getpid()
  ) throws(Refusal) -> Int32? {
    defer { for name in variables { unsetenv(name) } }
    guard let listenPID = environment["LISTEN_PID"], pid_t(listenPID) == pid else { return nil }
    let count = environment["LISTEN_FDS"] ?? ""
    guard count == "1" else {
      throw Refusal(
        description:
          "LISTEN_FDS=\(count) with LISTEN_PID=\(listenPID): transitiond takes exactly one "
          + "listening socket from systemd (one ListenStream= in transitiond.socket)")
    }
    let descriptor = firstDescriptor
    guard let problem = problem(with: descriptor) else { return descriptor }
    throw Refusal(
      description:
        "LISTEN_FDS=1 with LISTEN_PID=\(listenPID), but fd \(descriptor) \(problem)")
  }

  /// What is wrong with `descriptor` as the daemon's listening socket, or nil when it is a
  /// listening `AF_UNIX` stream socket.
  static func problem(with descriptor: Int32) -> String? {
    func option(_ name: Int32) -> Int32? {
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }
    guard let domain = option(SO_DOMAIN), let type = option(SO_TYPE),
      let accepting = option(SO_ACCEPTCONN)
    else { return "is not a socket (\(SystemError(errno: errno, function: "getsockopt")))" }
    guard domain == AF_UNIX else { return "is not an AF_UNIX socket (domain \(domain))" }
    guard type == Int32(SOCK_STREAM.rawValue) else {
      return "is not a stream socket (type \(type))"
    }
    guard accepting == 1 else { return "is not listening" }
    return nil
  }

  /// The file system path a Unix socket is bound to, or nil (an abstract or unnamed socket).
  public static func boundPath(of descriptor: Int32) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    guard result == 0 else { return nil }
    let path = withUnsafeBytes(of: address.sun_path) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return path.isEmpty ? nil : path
  }
}
