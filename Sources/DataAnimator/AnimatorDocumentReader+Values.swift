import TransitionJSON
import TransitionKit

/// Colours and values a track or an added layer takes.
extension AnimatorDocumentReader {
  mutating func colors(_ value: JSONValue, _ pointer: String, layerAllowed: Bool)
    -> [ColorChoice]?
  {
    let elements: [(JSONValue, String)]
    if case .array(let list) = value {
      guard !list.isEmpty, list.count <= 8 else {
        report(pointer, "a colour list has 1 to 8 choices")
        return nil
      }
      elements = list.enumerated().map { ($0.element, Self.child(pointer, $0.offset)) }
    } else {
      elements = [(value, pointer)]
    }
    var choices: [ColorChoice] = []
    for (element, elementPointer) in elements {
      guard let text = string(element, elementPointer) else { return nil }
      switch text {
      case "from.background": choices.append(.screenBackground(.from))
      case "to.background": choices.append(.screenBackground(.to))
      case "selected.background": choices.append(.layerBackground(.selected))
      case "match.background": choices.append(.layerBackground(.match))
      case "layer.background" where layerAllowed: choices.append(.layerBackground(.layer))
      default:
        guard text.hasPrefix("#"), let color = try? Color(hex: text) else {
          report(
            elementPointer,
            "a colour is #rrggbb, #rrggbbaa, from.background, to.background, "
              + "selected.background or match.background\(layerAllowed ? " or layer.background" : ""), got \"\(text)\""
          )
          return nil
        }
        choices.append(.literal(color))
      }
    }
    return choices
  }

  /// A value of `property`, as ``value(_:_:kind:scope:)`` reads its kind; a length (a radius,
  /// a width, a blur) written as a negative number is reported.
  mutating func value(
    _ value: JSONValue, _ pointer: String, of property: LayerProperty, scope: Set<String>
  ) -> ValueExpression? {
    let read = self.value(value, pointer, kind: property.kind, scope: scope)
    if property.isLength, case .numbers(let expressions, _) = read,
      let constant = expressions.first?.constantValue, constant < 0
    {
      report(
        pointer, "\(property.rawValue) must not be negative, got \(JSONValue.format(constant))")
      return nil
    }
    return read
  }

  /// A value of `kind`: an expression for a number, a list of expressions for a point, size,
  /// rect or transform, `true`/`false` for a bool, a colour list for a colour, `"selected"`,
  /// `"match"`, an added layer's name or null for a layer (``ClipChoice``).
  mutating func value(
    _ value: JSONValue, _ pointer: String, kind: PropertyValue.Kind, scope: Set<String>
  ) -> ValueExpression? {
    let count: Int
    switch kind {
    case .number:
      return expression(value, pointer, scope: scope).map { .numbers([$0], kind: .number) }
    case .bool: return bool(value, pointer).map { .bool($0) }
    case .color: return colors(value, pointer, layerAllowed: true).map { .color($0) }
    case .point, .size: count = 2
    case .rect: count = 4
    case .transform: count = 16
    case .layer:
      if value == .null { return .layer(.none) }
      guard let name = string(value, pointer), !name.isEmpty else { return nil }
      switch name {
      case "selected": return .layer(.reference(.selected))
      case "match": return .layer(.reference(.match))
      default: return .layer(.added(name))
      }
    }
    guard case .array(let elements) = value, elements.count == count else {
      report(pointer, "must be an array of \(count) numbers or expressions")
      return nil
    }
    var expressions: [Expression] = []
    for (index, element) in elements.enumerated() {
      guard let expression = expression(element, Self.child(pointer, index), scope: scope) else {
        return nil
      }
      expressions.append(expression)
    }
    return .numbers(expressions, kind: kind)
  }
}
