import TransitionJSON
import TransitionKit
import TransitionWire

/// Typed reads of a request's fields; every failure is a `bad_request` naming the field.
extension Request {
  func requiredString(_ key: String) throws(WireError) -> String {
    try read { () throws(EngineError) in try body.required(key).string() }
  }

  func optionalString(_ key: String) throws(WireError) -> String? {
    try read { () throws(EngineError) in try body.optional(key)?.string() }
  }

  func requiredNumber(_ key: String) throws(WireError) -> Double {
    try read { () throws(EngineError) in try body.required(key).number() }
  }

  func optionalNumber(_ key: String) throws(WireError) -> Double? {
    try read { () throws(EngineError) in try body.optional(key)?.number() }
  }

  func optionalBool(_ key: String) throws(WireError) -> Bool? {
    try read { () throws(EngineError) in try body.optional(key)?.bool() }
  }

  /// An object whose members are all numbers, such as `params`.
  func optionalNumbers(_ key: String) throws(WireError) -> [String: Double]? {
    try read { () throws(EngineError) -> [String: Double]? in
      guard let field = try body.optional(key) else { return nil }
      guard case .object(let members) = field.value else {
        throw EngineError(.invalidValue, "\(key) must be an object of numbers")
      }
      var numbers: [String: Double] = [:]
      for name in members.keys.sorted() {
        numbers[name] = try field.required(name).number()
      }
      return numbers
    }
  }

  /// A point `[x, y]` in container points (`touch`) or points per second (`touchVelocity`):
  /// two finite numbers within ±`ContextBounds.maximumCoordinate`.
  func optionalPoint(_ key: String) throws(WireError) -> Point? {
    let field: JSONField?
    do { field = try body.optional(key) } catch { throw WireError(.badRequest, error.message) }
    guard let field else { return nil }
    let limit = ContextBounds.maximumCoordinate
    let problem =
      "\(key) must be two finite numbers [x, y] within ±\(JSONValue.format(limit))"
    guard case .array(let elements) = field.value, elements.count == 2,
      case .number(let x) = elements[0], case .number(let y) = elements[1],
      ContextBounds.coordinate.contains(x), ContextBounds.coordinate.contains(y)
    else { throw WireError(.badRequest, problem + ", got \(field.value.serialized)") }
    return Point(x: x, y: y)
  }

  /// A whole number field.
  func requiredInteger(_ key: String) throws(WireError) -> Int {
    let number = try requiredNumber(key)
    guard number == number.rounded(), abs(number) < 1e15 else {
      throw WireError(.badRequest, "\(key) must be an integer, got \(number)")
    }
    return Int(number)
  }

  /// Refuses a member other than `op`, `id` and `members`, naming the first unknown one (in
  /// sorted order, so the same request always gets the same reply).
  func allowOnly(_ members: [String], of op: Op) throws(WireError) {
    guard case .object(let fields) = body.value else { return }
    // A handful of short names: compared in place, nothing built while every name is known.
    func isKnown(_ name: String) -> Bool { name == "op" || name == "id" || members.contains(name) }
    guard let unknown = fields.keys.filter({ !isKnown($0) }).min() else { return }
    let takes = members.isEmpty ? "takes no members" : "takes \(members.joined(separator: ", "))"
    throw WireError(
      .badRequest, "\(unknown) is not a member of \(op.rawValue) (\(op.rawValue) \(takes))")
  }

  private func read<Value>(_ body: () throws(EngineError) -> Value) throws(WireError) -> Value {
    do {
      return try body()
    } catch {
      throw WireError(.badRequest, error.message)
    }
  }
}
