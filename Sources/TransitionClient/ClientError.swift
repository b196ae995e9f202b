/// An error raised by ``DaemonClient``: it could not reach the daemon, the daemon refused a
/// request, or the conversation broke.
///
/// Match on ``code``; ``message`` is a human sentence. Protocol errors also carry the daemon's
/// own error code (``daemonCode``, e.g. `unknown_session`) so callers can tell them apart.
public struct ClientError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A machine-readable category; new codes may be added.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The socket could not be created or connected; ``ClientError/path`` names it.
    public static let connectFailed = Code(rawValue: "connect_failed")
    /// The daemon answered `ok: false`; ``ClientError/daemonCode`` holds its error code.
    public static let protocolError = Code(rawValue: "protocol_error")
    /// The daemon closed the connection (or writing to it failed).
    public static let closed = Code(rawValue: "closed")
    /// Nothing arrived before the deadline.
    public static let timeout = Code(rawValue: "timeout")
    /// The daemon sent something that is not the JSON the protocol promises, or a request
    /// could not be encoded.
    public static let malformed = Code(rawValue: "malformed")
  }

  /// The category of the failure.
  public let code: Code
  /// A human-readable sentence describing the failure.
  public let message: String
  /// The socket path, for ``Code/connectFailed``.
  public let path: String?
  /// The daemon's error code (`unknown_session`, `forbidden`, …), for ``Code/protocolError``.
  public let daemonCode: String?
  /// The `errno` of the failing system call, when one failed.
  public let errno: Int32?

  /// Creates an error; prefer the static constructors.
  public init(
    _ code: Code, _ message: String, path: String? = nil, daemonCode: String? = nil,
    errno: Int32? = nil
  ) {
    self.code = code
    self.message = message
    self.path = path
    self.daemonCode = daemonCode
    self.errno = errno
  }

  /// The socket at `path` could not be reached.
  public static func connectFailed(path: String, reason: String, errno: Int32? = nil) -> ClientError
  {
    ClientError(.connectFailed, "cannot connect to \(path): \(reason)", path: path, errno: errno)
  }

  /// The daemon refused a request with `code` and `message`.
  public static func protocolError(code: String, message: String) -> ClientError {
    ClientError(.protocolError, message, daemonCode: code)
  }

  public var description: String {
    if let daemonCode { return "\(daemonCode): \(message)" }
    return message
  }
}
