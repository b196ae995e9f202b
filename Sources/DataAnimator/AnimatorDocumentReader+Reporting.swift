import TransitionJSON
import TransitionKit

/// How the reader reports a problem, and its typed reads of a value, each reporting what it refuses.
extension AnimatorDocumentReader {
  func issue(_ pointer: String, _ message: String) -> ValidationIssue {
    let (line, column) = map.location(of: pointer)
    return ValidationIssue(
      file: file, line: line, column: column, pointer: pointer, message: message)
  }

  mutating func report(_ pointer: String, _ message: String) {
    issues.append(issue(pointer, message))
  }

  static func child(_ pointer: String, _ key: String) -> String {
    "\(pointer)/\(JSONSourceMap.escape(key))"
  }

  static func child(_ pointer: String, _ index: Int) -> String { "\(pointer)/\(index)" }

  /// The members of an object, reporting other members than `allowed`; nil (reported) for a
  /// value that is not an object.
  mutating func object(_ value: JSONValue, _ pointer: String, allowed: Set<String>)
    -> [String: JSONValue]?
  {
    guard case .object(let members) = value else {
      report(pointer, "must be an object")
      return nil
    }
    for key in members.keys.sorted() where !allowed.contains(key) {
      report(
        Self.child(pointer, key),
        "unknown member \"\(key)\" (expected one of \(allowed.sorted().joined(separator: ", ")))")
    }
    return members
  }

  mutating func array(_ value: JSONValue, _ pointer: String, maximum: Int) -> [JSONValue]? {
    guard case .array(let elements) = value else {
      report(pointer, "must be an array")
      return nil
    }
    guard elements.count <= maximum else {
      report(pointer, "has \(elements.count) elements, more than the limit of \(maximum)")
      return nil
    }
    return elements
  }

  mutating func string(_ value: JSONValue, _ pointer: String) -> String? {
    guard case .string(let text) = value else {
      report(pointer, "must be a string")
      return nil
    }
    return text
  }

  mutating func number(_ value: JSONValue, _ pointer: String) -> Double? {
    guard case .number(let number) = value else {
      report(pointer, "must be a number")
      return nil
    }
    return number
  }

  mutating func bool(_ value: JSONValue, _ pointer: String) -> Bool? {
    guard case .bool(let flag) = value else {
      report(pointer, "must be true or false")
      return nil
    }
    return flag
  }
}
