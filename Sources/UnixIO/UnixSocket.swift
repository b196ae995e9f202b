import Glibc

/// Blocking AF_UNIX sockets opened by path, for clients and tests: every call retries `EINTR`
/// and a failure names the function, its `errno` and the path.
public enum UnixSocket {
  /// A new socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`) connected to `path`; the caller owns
  /// (and closes) the descriptor.
  /// - Throws: the failing call (`sockaddr_un`, `socket`, `connect`); nothing is left open.
  public static func connect(path: String, type: Int32 = Int32(SOCK_STREAM.rawValue))
    throws(SystemError) -> Int32
  {
    try open(path: path, type: type, allowAbstract: false, "connect", Glibc.connect)
  }

  /// A new socket of `type` bound to `path` (`@name` for an abstract name); the caller owns the
  /// descriptor.
  /// - Throws: the failing call (`sockaddr_un`, `socket`, `bind`); nothing is left open.
  public static func bind(
    path: String, type: Int32 = Int32(SOCK_STREAM.rawValue), allowAbstract: Bool = false
  ) throws(SystemError) -> Int32 {
    try open(path: path, type: type, allowAbstract: allowAbstract, "bind", Glibc.bind)
  }

  /// A new socket on which `call` (`connect` or `bind`) succeeded for `path`.
  private static func open(
    path: String, type: Int32, allowAbstract: Bool, _ function: String,
    _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) throws(SystemError) -> Int32 {
    let address = try UnixSocketAddress(path: path, allowAbstract: allowAbstract)
    let descriptor = try retryingInterrupts("socket", path: path) {
      socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      _ = try address.withSocketAddress { (pointer, length) throws(SystemError) in
        try retryingInterrupts(function, path: path) { call(descriptor, pointer, length) }
      }
    } catch {
      _ = close(descriptor)
      throw error
    }
    return descriptor
  }
}
