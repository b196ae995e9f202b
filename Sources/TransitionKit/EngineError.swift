/// An error raised by the engine for input it cannot accept.
///
/// The engine never traps on bad input: non-finite numbers, negative durations, keyframes
/// outside [0, 1], empty timelines and the like are reported with a `code` that programs can
/// match and a `message` that names the offending value (and, where known, its path, such as
/// `layers[2].tracks[0].keyframes[1].start`).
public struct EngineError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A machine-readable category; new codes may be added.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A number is NaN or infinite.
    public static let nonFinite = Code(rawValue: "non_finite")
    /// A number lies outside the range the field allows.
    public static let outOfRange = Code(rawValue: "out_of_range")
    /// A value has the wrong shape or type for its field.
    public static let invalidValue = Code(rawValue: "invalid_value")
    /// A required field is missing.
    public static let missingField = Code(rawValue: "missing_field")
    /// Something that must not be empty is empty.
    public static let empty = Code(rawValue: "empty")
    /// An identifier appears twice where it must be unique.
    public static let duplicate = Code(rawValue: "duplicate")
    /// An operation is not allowed in the current state.
    public static let invalidState = Code(rawValue: "invalid_state")
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code): \(message)" }

  /// Throws `nonFinite` unless `value` is finite.
  /// - Parameter name: the field's name or path, used in the message.
  public static func requireFinite(_ value: Double, _ name: String) throws(EngineError) {
    guard value.isFinite else {
      throw EngineError(.nonFinite, "\(name) must be a finite number, got \(value)")
    }
  }

  /// Throws `outOfRange` unless `value` is finite and within `range`.
  public static func require(
    _ value: Double, in range: ClosedRange<Double>, _ name: String
  ) throws(EngineError) {
    try requireFinite(value, name)
    guard range.contains(value) else {
      throw EngineError(
        .outOfRange, "\(name) must be in [\(range.lowerBound), \(range.upperBound)], got \(value)")
    }
  }
}
