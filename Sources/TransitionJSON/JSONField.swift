/// A JSON value together with its path (`context.from.layers[2].frame`), for decoders that
/// name the offending field in every error.
public struct JSONField: Sendable {
  public let value: JSONValue
  public let path: String

  public init(_ value: JSONValue, path: String) {
    self.value = value
    self.path = path
  }

  /// How messages name this value: its path, or "the document" for the root.
  private var subject: String { path.isEmpty ? "the document" : path }

  /// The member `key`, or nil when it is absent or `null`.
  /// - Throws: `invalidValue` when this value is not an object.
  public func optional(_ key: String) throws(EngineError) -> JSONField? {
    guard case .object(let members) = value else {
      throw EngineError(.invalidValue, "\(subject) must be an object")
    }
    guard let member = members[key], member != .null else { return nil }
    return JSONField(member, path: path.isEmpty ? key : "\(path).\(key)")
  }

  /// The member `key`.
  /// - Throws: `missingField` naming it when absent.
  public func required(_ key: String) throws(EngineError) -> JSONField {
    guard let field = try optional(key) else {
      throw EngineError(.missingField, "\(path.isEmpty ? key : "\(path).\(key)") is required")
    }
    return field
  }

  /// The member `key`, which may be `null` (for values where `null` means something, such as
  /// "no colour").
  /// - Throws: `invalidValue` when this value is not an object; `missingField` naming the member
  ///   when absent.
  public func requiredOrNull(_ key: String) throws(EngineError) -> JSONField {
    guard case .object(let members) = value else {
      throw EngineError(.invalidValue, "\(subject) must be an object")
    }
    let memberPath = path.isEmpty ? key : "\(path).\(key)"
    guard let member = members[key] else {
      throw EngineError(.missingField, "\(memberPath) is required")
    }
    return JSONField(member, path: memberPath)
  }

  /// The elements of an array, each with its indexed path.
  public func elements() throws(EngineError) -> [JSONField] {
    guard case .array(let values) = value else {
      throw EngineError(.invalidValue, "\(subject) must be an array")
    }
    return values.enumerated().map { JSONField($0.element, path: "\(path)[\($0.offset)]") }
  }

  public func number() throws(EngineError) -> Double {
    guard case .number(let number) = value else {
      throw EngineError(.invalidValue, "\(subject) must be a number")
    }
    try EngineError.requireFinite(number, path)
    return number
  }

  public func string() throws(EngineError) -> String {
    guard case .string(let string) = value else {
      throw EngineError(.invalidValue, "\(subject) must be a string")
    }
    return string
  }

  public func bool() throws(EngineError) -> Bool {
    guard case .bool(let flag) = value else {
      throw EngineError(.invalidValue, "\(subject) must be true or false")
    }
    return flag
  }

  /// An array of exactly `count` finite numbers.
  public func numbers(count: Int) throws(EngineError) -> [Double] {
    guard case .array(let values) = value, values.count == count else {
      throw EngineError(.invalidValue, "\(subject) must be an array of \(count) numbers")
    }
    var numbers: [Double] = []
    for (index, element) in values.enumerated() {
      guard case .number(let number) = element else {
        throw EngineError(.invalidValue, "\(path)[\(index)] must be a number")
      }
      try EngineError.requireFinite(number, "\(path)[\(index)]")
      numbers.append(number)
    }
    return numbers
  }

  /// `[x, y, w, h]`; the size must not be negative.
  public func rect() throws(EngineError) -> Rect {
    let n = try numbers(count: 4)
    guard n[2] >= 0, n[3] >= 0 else {
      throw EngineError(.outOfRange, "\(subject) must not have a negative width or height")
    }
    return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
  }

  /// `[x, y]`.
  public func point() throws(EngineError) -> Point {
    let n = try numbers(count: 2)
    return Point(x: n[0], y: n[1])
  }

  /// `[w, h]`; neither may be negative.
  public func size() throws(EngineError) -> Size {
    let n = try numbers(count: 2)
    guard n[0] >= 0, n[1] >= 0 else {
      throw EngineError(.outOfRange, "\(subject) must not be negative")
    }
    return Size(width: n[0], height: n[1])
  }

  /// `"#rrggbbaa"` or `"#rrggbb"`.
  public func color() throws(EngineError) -> Color {
    do {
      return try Color(hex: try string())
    } catch {
      throw EngineError(error.code, "\(path): \(error.message)")
    }
  }

  /// 16 numbers in CATransform3D field order.
  public func transform() throws(EngineError) -> Transform3D {
    let n = try numbers(count: 16)
    do {
      return try Transform3D(elements: n)
    } catch {
      throw EngineError(error.code, "\(path): \(error.message)")
    }
  }

  /// Rejects members other than `keys`, naming the first unknown one.
  public func allowOnly(_ keys: Set<String>) throws(EngineError) {
    guard case .object(let members) = value else {
      throw EngineError(.invalidValue, "\(subject) must be an object")
    }
    if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
      throw EngineError(
        .invalidValue, "\(path.isEmpty ? unknown : "\(path).\(unknown)") is not a known field")
    }
  }
}
