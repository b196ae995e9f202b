/// A JSON value: layer `content` passed through to renderers untouched, and the form in which
/// contexts and timelines cross the plugin boundary.
public enum JSONValue: Equatable, Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses UTF-8 JSON text (RFC 8259), nesting at most `JSONParser.maximumDepth` deep.
  /// - Throws: `EngineError.invalidValue` naming the byte offset of the first problem.
  public init(parsing bytes: some Collection<UInt8>) throws(EngineError) {
    let array = Array(bytes)
    self = try array.withUnsafeBufferPointer { buffer throws(EngineError) in
      var parser = JSONParser(buffer)
      return try parser.parseDocument()
    }
  }

  /// Parses JSON text.
  public init(parsing text: String) throws(EngineError) {
    try self.init(parsing: Array(text.utf8))
  }

  /// Compact JSON text with object keys sorted, so that equal values print the same bytes.
  public var serialized: String {
    var text = ""
    write(to: &text)
    return text
  }

  /// Appends compact JSON text to `text`.
  public func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value): text += JSONValue.format(value)
    case .string(let value): JSONValue.writeString(value, to: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        value.write(to: &text)
      }
      text += "]"
    case .object(let values):
      text += "{"
      for (index, key) in values.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        JSONValue.writeString(key, to: &text)
        text += ":"
        values[key]!.write(to: &text)
      }
      text += "}"
    }
  }

  /// A number as JSON: integers without a fraction, others in the shortest form that reads
  /// back to the same Double; non-finite numbers (which JSON cannot carry) as `null`.
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 {
      return String(Int64(value))
    }
    return "\(value)"
  }

  /// Writes `value` as a JSON string literal.
  public static func writeString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

extension JSONValue {
  /// The member `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    if case .object(let values) = self { return values[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let values) = self { return values }
    return nil
  }

  public var objectValue: [String: JSONValue]? {
    if case .object(let values) = self { return values }
    return nil
  }
}
