import TransitionJSON

/// Documents made from a valid one by changing one place, for checking that a fast decoder
/// agrees with its reference on what it must refuse as well as on what it reads.
enum JSONMutants {
  /// `document` changed at each place below its root: its value replaced by three of
  /// `replacements`, taken in turn (so that every kind meets every place across the document
  /// without thousands of mutants), removed, and, for an object, joined by a member named
  /// `unknown`.
  static func of(_ document: JSONValue, replacements: [JSONValue]) -> [JSONValue] {
    var mutants: [JSONValue] = []
    for (index, path) in paths(of: document).enumerated() {
      for offset in 0..<3 {
        let replacement = replacements[(index * 3 + offset) % replacements.count]
        mutants.append(replacing(path, in: document, with: replacement))
      }
      mutants.append(replacing(path, in: document, with: nil))
      mutants.append(addingUnknownMember(at: path, in: document))
    }
    return mutants
  }

  private enum Step: Equatable {
    case member(String)
    case element(Int)
  }

  /// The path of every value below the root.
  private static func paths(of value: JSONValue, prefix: [Step] = []) -> [[Step]] {
    var result: [[Step]] = prefix.isEmpty ? [] : [prefix]
    switch value {
    case .object(let members):
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        result += paths(of: member, prefix: prefix + [.member(key)])
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        result += paths(of: element, prefix: prefix + [.element(index)])
      }
    default: break
    }
    return result
  }

  /// `value` with the value at `path` replaced, or removed when `replacement` is nil.
  private static func replacing(_ path: [Step], in value: JSONValue, with replacement: JSONValue?)
    -> JSONValue
  {
    guard let step = path.first else { return replacement ?? .null }
    let rest = Array(path.dropFirst())
    switch (step, value) {
    case (.member(let key), .object(var members)):
      if rest.isEmpty, replacement == nil {
        members[key] = nil
      } else if let member = members[key] {
        members[key] = replacing(rest, in: member, with: replacement)
      }
      return .object(members)
    case (.element(let index), .array(var elements)):
      if rest.isEmpty, replacement == nil {
        elements.remove(at: index)
      } else {
        elements[index] = replacing(rest, in: elements[index], with: replacement)
      }
      return .array(elements)
    default:
      return value
    }
  }

  /// `value` with a member no decoder knows added to the object at `path` (when it is one).
  private static func addingUnknownMember(at path: [Step], in value: JSONValue) -> JSONValue {
    var target = value
    for step in path {
      switch (step, target) {
      case (.member(let key), .object(let members)): target = members[key] ?? .null
      case (.element(let index), .array(let elements)): target = elements[index]
      default: return value
      }
    }
    guard case .object(var members) = target else { return value }
    members["unknown"] = .number(1)
    return replacing(path, in: value, with: .object(members))
  }
}
