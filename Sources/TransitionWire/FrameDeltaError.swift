/// A frame that ``FrameDeltaApplier`` cannot apply.
public struct FrameDeltaError: Error, Equatable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
