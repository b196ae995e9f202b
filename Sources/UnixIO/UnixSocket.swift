import Glibc

/// Blocking AF_UNIX sockets opened by path, for clients and tests: every call retries `EINTR`
/// and a failure names the function, its `errno` and the path.
public enum UnixSocket {
  /// A new socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`) connected to `path`; the caller owns
  /// (and closes) the descriptor.
  /// - Throws: the failing call (`sockaddr_un`, `socket`, `connect`); nothing is left open.
  public static func connect(path: String, type: Int32 = Int32(SOCK_STREAM.rawValue))
    throws(SystemCallError) -> Int32
  {
    let address = try UnixSocketAddress(path: path)
    let descriptor = try open(type: type, path: path)
    var result: Int32
    repeat {
      result = address.withSocketAddress { Glibc.connect(descriptor, $0, $1) }
    } while result != 0 && errno == EINTR
    guard result == 0 else {
      let code = errno
      _ = close(descriptor)
      throw SystemCallError(function: "connect", errno: code, path: path)
    }
    return descriptor
  }

  /// A new socket of `type` bound to `path` (`@name` for an abstract name); the caller owns the
  /// descriptor.
  /// - Throws: the failing call (`sockaddr_un`, `socket`, `bind`); nothing is left open.
  public static func bind(
    path: String, type: Int32 = Int32(SOCK_STREAM.rawValue), allowAbstract: Bool = false
  ) throws(SystemCallError) -> Int32 {
    let address = try UnixSocketAddress(path: path, allowAbstract: allowAbstract)
    let descriptor = try open(type: type, path: path)
    guard address.withSocketAddress({ Glibc.bind(descriptor, $0, $1) }) == 0 else {
      let code = errno
      _ = close(descriptor)
      throw SystemCallError(function: "bind", errno: code, path: path)
    }
    return descriptor
  }

  private static func open(type: Int32, path: String) throws(SystemCallError) -> Int32 {
    let descriptor = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw SystemCallError(function: "socket", errno: errno, path: path)
    }
    return descriptor
  }
}
