import TransitionJSON

/// Typed access to the members of a JSON object the daemon sent, failing with
/// ``ClientError/Code/malformed`` naming the member's path when it is missing or mistyped.
///
/// `null` counts as missing; numbers and booleans are distinct JSON types, never converted.
public struct JSONObject: Sendable {
  /// The object's members.
  public let fields: [String: JSONValue]
  /// Where this object sits in the message (`reply`, `stats.frames`, …), used in error messages.
  public let context: String

  /// Wraps `fields`; `context` names the object in error messages.
  public init(_ fields: [String: JSONValue], context: String) {
    self.fields = fields
    self.context = context
  }

  /// The member `key`, if present and not JSON `null`.
  public subscript(key: String) -> JSONValue? {
    guard let value = fields[key], value != .null else { return nil }
    return value
  }

  /// The string at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a string.
  public func string(_ key: String) throws(ClientError) -> String {
    guard let value = self[key]?.stringValue else { throw missing(key, "a string") }
    return value
  }

  /// The number at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a number.
  public func double(_ key: String) throws(ClientError) -> Double {
    guard let value = self[key]?.numberValue else { throw missing(key, "a number") }
    return value
  }

  /// The integral number at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing, not a number or not integral.
  public func int(_ key: String) throws(ClientError) -> Int {
    guard let value = self[key]?.numberValue, let integer = Int(exactly: value) else {
      throw missing(key, "an integer")
    }
    return integer
  }

  /// The boolean at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a boolean.
  public func bool(_ key: String) throws(ClientError) -> Bool {
    guard let value = self[key]?.boolValue else { throw missing(key, "a boolean") }
    return value
  }

  /// The object at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not an object.
  public func object(_ key: String) throws(ClientError) -> JSONObject {
    guard let value = self[key]?.objectValue else { throw missing(key, "an object") }
    return JSONObject(value, context: "\(context).\(key)")
  }

  /// The array at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not an array.
  public func array(_ key: String) throws(ClientError) -> [JSONValue] {
    guard let value = self[key]?.arrayValue else { throw missing(key, "an array") }
    return value
  }

  /// The array of strings at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or when an element is not a string.
  public func strings(_ key: String) throws(ClientError) -> [String] {
    guard let value = self[key]?.arrayValue else { throw missing(key, "an array of strings") }
    var result: [String] = []
    for element in value {
      guard let text = element.stringValue else { throw missing(key, "an array of strings") }
      result.append(text)
    }
    return result
  }

  /// The array of objects at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or when an element is not an object.
  public func objects(_ key: String) throws(ClientError) -> [JSONObject] {
    guard let value = self[key]?.arrayValue else { throw missing(key, "an array of objects") }
    var result: [JSONObject] = []
    for (index, element) in value.enumerated() {
      guard let object = element.objectValue else {
        throw missing("\(key)[\(index)]", "an object")
      }
      result.append(JSONObject(object, context: "\(context).\(key)[\(index)]"))
    }
    return result
  }

  private func missing(_ key: String, _ expected: String) -> ClientError {
    ClientError(.malformed, "\(context).\(key) is missing or not \(expected)")
  }
}
