import Foundation

/// Typed access to the fields of a decoded JSON object, failing with
/// ``ClientError/Code/malformed`` when a field is missing or has the wrong type.
///
/// Values come from `JSONSerialization`, so numbers arrive as `NSNumber`; the accessors
/// convert them and reject booleans where numbers are expected (and vice versa).
public struct JSONObject {
  /// The decoded fields.
  public let fields: [String: Any]
  /// Where this object sits in the message (`reply`, `stats.frames`, …), used in error messages.
  public let context: String

  /// Wraps `fields`; `context` names the object in error messages.
  public init(_ fields: [String: Any], context: String) {
    self.fields = fields
    self.context = context
  }

  /// The raw value of `key`, if present and not JSON `null`.
  public subscript(key: String) -> Any? {
    guard let value = fields[key], !(value is NSNull) else { return nil }
    return value
  }

  /// The string at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a string.
  public func string(_ key: String) throws(ClientError) -> String {
    guard let value = self[key] as? String else { throw missing(key, "a string") }
    return value
  }

  /// The number at `key` as a `Double`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a number.
  public func double(_ key: String) throws(ClientError) -> Double {
    guard let value = Self.number(self[key]) else { throw missing(key, "a number") }
    return value
  }

  /// The integral number at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing, not a number or not integral.
  public func int(_ key: String) throws(ClientError) -> Int {
    guard let value = Self.number(self[key]), let integer = Int(exactly: value) else {
      throw missing(key, "an integer")
    }
    return integer
  }

  /// The boolean at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not a boolean.
  public func bool(_ key: String) throws(ClientError) -> Bool {
    guard let value = Self.boolean(self[key]) else { throw missing(key, "a boolean") }
    return value
  }

  /// The object at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not an object.
  public func object(_ key: String) throws(ClientError) -> JSONObject {
    guard let value = self[key] as? [String: Any] else { throw missing(key, "an object") }
    return JSONObject(value, context: "\(context).\(key)")
  }

  /// The array at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or not an array.
  public func array(_ key: String) throws(ClientError) -> [Any] {
    guard let value = self[key] as? [Any] else { throw missing(key, "an array") }
    return value
  }

  /// The array of strings at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or when an element is not a string.
  public func strings(_ key: String) throws(ClientError) -> [String] {
    guard let value = self[key] as? [Any] else { throw missing(key, "an array of strings") }
    var result: [String] = []
    for element in value {
      guard let text = element as? String else { throw missing(key, "an array of strings") }
      result.append(text)
    }
    return result
  }

  /// The array of objects at `key`.
  /// - Throws: ``ClientError/Code/malformed`` when missing or when an element is not an object.
  public func objects(_ key: String) throws(ClientError) -> [JSONObject] {
    guard let value = self[key] as? [Any] else { throw missing(key, "an array of objects") }
    var result: [JSONObject] = []
    for (index, element) in value.enumerated() {
      guard let object = element as? [String: Any] else {
        throw missing("\(key)[\(index)]", "an object")
      }
      result.append(JSONObject(object, context: "\(context).\(key)[\(index)]"))
    }
    return result
  }

  /// A JSON number as a `Double`, or `nil` for anything else (booleans included).
  public static func number(_ value: Any?) -> Double? {
    guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
    return number.doubleValue
  }

  /// A JSON boolean, or `nil` for anything else (numbers included).
  public static func boolean(_ value: Any?) -> Bool? {
    guard let number = value as? NSNumber, isBoolean(number) else { return nil }
    return number.boolValue
  }

  private static func isBoolean(_ number: NSNumber) -> Bool {
    // JSONSerialization decodes `true`/`false` as boolean NSNumbers, whose type code is "c";
    // it never produces other "c" (Int8) numbers.
    String(cString: number.objCType) == "c"
  }

  private func missing(_ key: String, _ expected: String) -> ClientError {
    ClientError(.malformed, "\(context).\(key) is missing or not \(expected)")
  }
}
