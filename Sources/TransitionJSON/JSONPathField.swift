/// A JSON value together with its path (`context.from.layers[2].frame`), for decoders that
/// name the offending field in every error.
///
/// Generic over the error it throws, so that each decoder reports in its own error type
/// (TransitionKit's `JSONField` is `JSONPathField<EngineError>`).
///
/// The path is kept as the steps that led here and written out only when asked for (an error
/// message), so that decoding a large document builds no path strings.
public struct JSONPathField<Failure: JSONFieldFailure>: Sendable {
  /// Where a value is: the root's path, or a member or element of another place.
  private indirect enum Location: Sendable {
    case root(String)
    case member(Location, String)
    case element(Location, Int)

    var text: String {
      switch self {
      case .root(let path): return path
      case .member(let parent, let key):
        let base = parent.text
        return base.isEmpty ? key : "\(base).\(key)"
      case .element(let parent, let index): return "\(parent.text)[\(index)]"
      }
    }
  }

  public let value: JSONValue
  private let location: Location

  /// The value's path (`context.from.layers[2].frame`), empty for the root.
  public var path: String { location.text }

  public init(_ value: JSONValue, path: String) {
    self.value = value
    location = .root(path)
  }

  private init(_ value: JSONValue, location: Location) {
    self.value = value
    self.location = location
  }

  /// How messages name this value: its path, or "the document" for the root.
  public var subject: String { path.isEmpty ? "the document" : path }

  /// The member `key`, or nil when it is absent or `null`.
  /// - Throws: `invalidValue` when this value is not an object.
  public func optional(_ key: String) throws(Failure) -> JSONPathField? {
    guard case .object(let members) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be an object")
    }
    guard let member = members[key], member != .null else { return nil }
    return JSONPathField(member, location: .member(location, key))
  }

  /// The member `key`.
  /// - Throws: `missingField` naming it when absent.
  public func required(_ key: String) throws(Failure) -> JSONPathField {
    guard let field = try optional(key) else {
      throw Failure(
        problem: .missingField, message: "\(path.isEmpty ? key : "\(path).\(key)") is required")
    }
    return field
  }

  /// The member `key`, which may be `null` (for values where `null` means something, such as
  /// "no colour").
  /// - Throws: `invalidValue` when this value is not an object; `missingField` naming the member
  ///   when absent.
  public func requiredOrNull(_ key: String) throws(Failure) -> JSONPathField {
    guard case .object(let members) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be an object")
    }
    guard let member = members[key] else {
      throw Failure(
        problem: .missingField, message: "\(path.isEmpty ? key : "\(path).\(key)") is required")
    }
    return JSONPathField(member, location: .member(location, key))
  }

  /// The elements of an array, each with its indexed path.
  public func elements() throws(Failure) -> [JSONPathField] {
    guard case .array(let values) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be an array")
    }
    return values.enumerated().map {
      JSONPathField($0.element, location: .element(location, $0.offset))
    }
  }

  public func number() throws(Failure) -> Double {
    guard case .number(let number) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be a number")
    }
    if !number.isFinite { try Self.requireFinite(number, path) }
    return number
  }

  public func string() throws(Failure) -> String {
    guard case .string(let string) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be a string")
    }
    return string
  }

  public func bool() throws(Failure) -> Bool {
    guard case .bool(let flag) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be true or false")
    }
    return flag
  }

  /// An array of exactly `count` finite numbers.
  public func numbers(count: Int) throws(Failure) -> [Double] {
    guard case .array(let values) = value, values.count == count else {
      throw Failure(
        problem: .invalidValue, message: "\(subject) must be an array of \(count) numbers")
    }
    var numbers: [Double] = []
    for (index, element) in values.enumerated() {
      guard case .number(let number) = element else {
        throw Failure(problem: .invalidValue, message: "\(path)[\(index)] must be a number")
      }
      if !number.isFinite { try Self.requireFinite(number, "\(path)[\(index)]") }
      numbers.append(number)
    }
    return numbers
  }

  /// Rejects members other than `keys`, naming the first unknown one.
  public func allowOnly(_ keys: Set<String>) throws(Failure) {
    guard case .object(let members) = value else {
      throw Failure(problem: .invalidValue, message: "\(subject) must be an object")
    }
    // Sorted only when a member is unknown, so that the message names the same one each time.
    guard !members.keys.allSatisfy(keys.contains) else { return }
    if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
      throw Failure(
        problem: .invalidValue,
        message: "\(path.isEmpty ? unknown : "\(path).\(unknown)") is not a known field")
    }
  }

  private static func requireFinite(_ value: Double, _ name: String) throws(Failure) {
    guard value.isFinite else {
      throw Failure(problem: .nonFinite, message: "\(name) must be a finite number, got \(value)")
    }
  }
}
