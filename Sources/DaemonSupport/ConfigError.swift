/// A configuration that cannot be used: the file, and a message naming the offending key.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The config file concerned; nil for command-line values.
  public let file: String?
  /// One line naming the key and what is wrong with it, such as
  /// `limits.maxClients must be a positive integer, got -1`.
  public let message: String

  public init(file: String?, _ message: String) {
    self.file = file
    self.message = message
  }

  public var description: String {
    file.map { "config \($0): \(message)" } ?? message
  }
}
