import TransitionJSON
import TransitionKit

/// The document's top level: its parameters, variables and expressions.
extension AnimatorDocumentReader {
  static let documentKeys: Set<String> = [
    "$schema", "description", "params", "let", "requires", "operations", "reduced", "handover",
  ]

  mutating func document(_ value: JSONValue, name: String) -> AnimatorDocument? {
    if !AnimatorName.isValid(name) {
      report("", "the file's name \"\(name).json\" is not an animator name: \(AnimatorName.rule)")
    }
    guard let members = object(value, "", allowed: Self.documentKeys) else { return nil }
    if let description = members["description"] { _ = string(description, "/description") }
    if let schema = members["$schema"] { _ = string(schema, "/$schema") }
    let parameters = members["params"].map { self.parameters($0, "/params") } ?? []
    parameterNames = Set(parameters.map(\.name))
    let variables =
      members["let"].map {
        self.bindings($0, "/let", scope: Self.contextNames.union(parameterNames), layerScope: false)
      } ?? []
    globalNames = Self.contextNames.union(parameterNames).union(variables.map(\.name))

    var requiresSelected = false
    var requiresMatch = false
    if let requires = members["requires"],
      let elements = array(requires, "/requires", maximum: 2)
    {
      for (index, element) in elements.enumerated() {
        let pointer = Self.child("/requires", index)
        switch string(element, pointer) {
        case "selected": requiresSelected = true
        case "match": requiresMatch = true
        case let other?: report(pointer, "must be \"selected\" or \"match\", got \"\(other)\"")
        case nil: break
        }
      }
    }

    var plans: [TransitionOperation: OperationPlan] = [:]
    if let operations = members["operations"] {
      plans = self.plans(operations, "/operations")
    } else {
      report("", "\"operations\" is required")
    }
    let reduced = members["reduced"].flatMap { self.reducedPlan($0, "/reduced") }
    let handover = members["handover"].flatMap { self.handover($0, "/handover") }
    return AnimatorDocument(
      name: name, parameters: parameters, variables: variables,
      requiresSelected: requiresSelected, requiresMatch: requiresMatch, plans: plans,
      reduced: reduced, handover: handover, nameSlots: nameSlots)
  }

  mutating func parameters(_ value: JSONValue, _ pointer: String) -> [AnimatorParameter] {
    guard case .object(let members) = value else {
      report(pointer, "must be an object of parameters")
      return []
    }
    guard members.count <= Self.maximumParameters else {
      report(
        pointer, "has \(members.count) parameters, more than the limit of \(Self.maximumParameters)"
      )
      return []
    }
    var parameters: [AnimatorParameter] = []
    for key in members.keys.sorted(by: { offset(pointer, $0) < offset(pointer, $1) }) {
      let itemPointer = Self.child(pointer, key)
      guard checkVariableName(key, itemPointer) else { continue }
      guard
        let fields = object(
          members[key]!, itemPointer, allowed: ["default", "min", "max", "description"])
      else { continue }
      guard let defaultField = fields["default"], let minField = fields["min"],
        let maxField = fields["max"]
      else {
        report(itemPointer, "a parameter needs \"default\", \"min\" and \"max\"")
        continue
      }
      guard let defaultValue = number(defaultField, Self.child(itemPointer, "default")),
        let low = number(minField, Self.child(itemPointer, "min")),
        let high = number(maxField, Self.child(itemPointer, "max"))
      else { continue }
      guard low <= high else {
        report(Self.child(itemPointer, "min"), "must not be above max")
        continue
      }
      guard (low...high).contains(defaultValue) else {
        report(Self.child(itemPointer, "default"), "must lie in [min, max]")
        continue
      }
      let summary = fields["description"].flatMap {
        string($0, Self.child(itemPointer, "description"))
      }
      parameters.append(
        AnimatorParameter(
          name: key, defaultValue: defaultValue, range: low...high, summary: summary))
    }
    return parameters
  }

  /// The byte offset of member `key` of the object at `pointer`, to keep the file's order.
  func offset(_ pointer: String, _ key: String) -> Int {
    map.offsets[Self.child(pointer, key)] ?? 0
  }

  mutating func checkVariableName(_ name: String, _ pointer: String) -> Bool {
    let valid =
      !name.isEmpty && name.count <= 64
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      && !(name.first!.isNumber)
    guard valid else {
      report(pointer, "\"\(name)\" is not a name: letters, digits and _, not starting with a digit")
      return false
    }
    let reserved = Self.contextNames.union(Self.layerNames).union(Self.staggerNames)
    guard !reserved.contains(name), ExpressionFunction(rawValue: name) == nil,
      !parameterNames.contains(name) || pointer.hasPrefix("/params")
    else {
      report(pointer, "\"\(name)\" is already a name")
      return false
    }
    return true
  }

  /// `let` variables over `scope`, sorted so that each follows the ones it reads; a cycle is
  /// reported with its chain.
  mutating func bindings(
    _ value: JSONValue, _ pointer: String, scope: Set<String>, layerScope: Bool
  ) -> [Binding] {
    guard case .object(let members) = value else {
      report(pointer, "must be an object of expressions")
      return []
    }
    guard members.count <= Self.maximumVariables else {
      report(
        pointer, "has \(members.count) variables, more than the limit of \(Self.maximumVariables)")
      return []
    }
    var parsed: [String: Expression] = [:]
    let keys = members.keys.sorted(by: { offset(pointer, $0) < offset(pointer, $1) })
    for key in keys {
      let itemPointer = Self.child(pointer, key)
      guard checkVariableName(key, itemPointer) else { continue }
      if layerScope, globalNames.contains(key) {
        report(itemPointer, "\"\(key)\" is already a name")
        continue
      }
      if let expression = self.expression(
        members[key]!, itemPointer, scope: scope.union(members.keys))
      {
        parsed[key] = expression
      }
    }
    // Depth-first topological sort; a name met again while still open closes a cycle.
    var sorted: [Binding] = []
    var done: Set<String> = []
    var open: [String] = []
    func visit(_ name: String) -> Bool {
      if done.contains(name) { return true }
      if let start = open.firstIndex(of: name) {
        let chain = (open[start...] + [name]).joined(separator: " → ")
        report(Self.child(pointer, name), "the variables form a cycle: \(chain)")
        return false
      }
      guard let expression = parsed[name] else { return true }
      open.append(name)
      for dependency in expression.names where parsed[dependency] != nil {
        guard visit(dependency) else { return false }
      }
      open.removeLast()
      done.insert(name)
      sorted.append(Binding(name: name, expression: expression, slot: nameSlots.slot(for: name)))
      return true
    }
    for key in keys where !done.contains(key) {
      guard visit(key) else { break }
    }
    return sorted
  }

  /// Parses an expression (a string, or a plain number) and checks its names against `scope`.
  mutating func expression(_ value: JSONValue, _ pointer: String, scope: Set<String>)
    -> Expression?
  {
    let text: String
    switch value {
    case .number(let number): return .number(number)
    case .string(let string): text = string
    default:
      report(pointer, "must be a number or an expression (a string)")
      return nil
    }
    let expression: Expression
    do {
      expression = try ExpressionParser.parse(text, slots: &nameSlots)
    } catch {
      report(pointer, "\(error.message) in \"\(text)\"")
      return nil
    }
    for name in expression.names where !scope.contains(name) {
      report(pointer, unknownNameMessage(name, scope: scope))
      return nil
    }
    return expression
  }

  func unknownNameMessage(_ name: String, scope: Set<String>) -> String {
    if Self.layerNames.contains(name) {
      return "\"\(name)\" is a layer's name: only rules' values may read it"
    }
    if Self.staggerNames.contains(name) {
      return "\"\(name)\" needs a \"stagger\" in the rule"
    }
    let near = scope.filter { editDistance($0, name) <= 2 }.sorted()
    return "unknown name \"\(name)\"" + (near.isEmpty ? "" : " (did you mean \(near[0])?)")
  }
}
