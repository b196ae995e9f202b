/// An error type a `JSONPathField` can throw: each decoder (engine, wire, config) maps the
/// reader's problems to its own codes.
public protocol JSONFieldFailure: Error {
  /// An error for `problem`, with a message that names the field's path.
  init(problem: JSONFieldProblem, message: String)
}

/// What a `JSONPathField` found wrong.
public enum JSONFieldProblem: Sendable {
  /// A required member is absent.
  case missingField
  /// A value has the wrong type or shape, or an object has an unknown member.
  case invalidValue
  /// A number is NaN or infinite (possible only in values built in code: the parser refuses
  /// numbers out of range).
  case nonFinite
}
