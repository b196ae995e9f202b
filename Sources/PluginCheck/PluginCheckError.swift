/// Why `check-plugin` could not run at all (as opposed to a check that failed), with the
/// `sysexits` status it exits with.
public struct PluginCheckError: Error, Equatable, Sendable, CustomStringConvertible {
  public struct Kind: Equatable, Sendable {
    public let exitStatus: Int32
    /// `EX_USAGE`: bad arguments.
    public static let usage = Kind(exitStatus: 64)
    /// `EX_DATAERR`: a scene that is not a valid context.
    public static let dataError = Kind(exitStatus: 65)
    /// `EX_NOINPUT`: a library or scene that cannot be read.
    public static let noInput = Kind(exitStatus: 66)
  }

  public let kind: Kind
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
