/// Text that is not valid JSON: what is wrong and the byte offset where it was found.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong (`unexpected end of input`, `unpaired surrogate`, …).
  public let reason: String
  /// The offset of the first offending byte from the start of the text.
  public let offset: Int

  public init(reason: String, offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  /// `not valid JSON: <reason> at byte <offset>`.
  public var message: String { "not valid JSON: \(reason) at byte \(offset)" }

  public var description: String { message }
}
