/// How much the daemon logs: each level includes the ones above it.
///
/// `error` is for failures that stop something (a start-up that cannot proceed, a plugin
/// refused), `warn` for trouble the daemon survives (a slow subscriber disconnected, a refused
/// admin op), `info` for the life of the daemon and its sessions, `debug` for every connection
/// and subscription.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
  case error, warn, info, debug

  /// The level named `name` (`error`, `warn`, `info`, `debug`), or nil.
  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = level
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String {
    switch self {
    case .error: "error"
    case .warn: "warn"
    case .info: "info"
    case .debug: "debug"
    }
  }
}
