/// Why the daemon could not start: one line for standard error and the exit status
/// (`sysexits.h`).
public struct StartupError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The exit status: 78 (`EX_CONFIG`) for a bad config or an unusable socket path, 69
  /// (`EX_UNAVAILABLE`) for a socket in use or no plugins, 71 (`EX_OSERR`) for a failed system
  /// call.
  public let exitStatus: Int32
  public let message: String

  public static let configStatus: Int32 = 78
  public static let unavailableStatus: Int32 = 69
  public static let systemStatus: Int32 = 71

  public init(exitStatus: Int32, _ message: String) {
    self.exitStatus = exitStatus
    self.message = message
  }

  public var description: String { message }
}
