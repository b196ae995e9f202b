import TransitionJSON
import TransitionKit

/// Tracks and their windows.
extension AnimatorDocumentReader {
  static let trackKeys: Set<String> = [
    "property", "from", "to", "over", "curve", "keyframes", "mode", "visible", "hiddenDuring",
    "appear", "if", "when", "mirror",
  ]

  mutating func track(_ value: JSONValue, _ pointer: String, scope: Set<String>)
    -> TrackRule?
  {
    guard let fields = object(value, pointer, allowed: Self.trackKeys) else { return nil }
    guard let propertyValue = fields["property"] else {
      report(pointer, "a track needs \"property\"")
      return nil
    }
    let propertyPointer = Self.child(pointer, "property")
    guard let name = string(propertyValue, propertyPointer) else { return nil }
    guard let property = LayerProperty(rawValue: name) else {
      report(
        propertyPointer,
        "\"\(name)\" is not a layer property (one of "
          + LayerProperty.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      return nil
    }
    let only = fields["if"].flatMap { selector($0, Self.child(pointer, "if")) }
    let when = fields["when"].map { condition($0, Self.child(pointer, "when")) } ?? .always
    let mirrors = fields["mirror"].flatMap { bool($0, Self.child(pointer, "mirror")) } ?? true
    var mode = CalculationMode.linear
    if let modeValue = fields["mode"], let modeName = string(modeValue, Self.child(pointer, "mode"))
    {
      guard let parsed = CalculationMode(rawValue: modeName) else {
        report(
          Self.child(pointer, "mode"),
          "must be one of " + CalculationMode.allCases.map(\.rawValue).joined(separator: ", "))
        return nil
      }
      mode = parsed
    }
    let curve = fields["curve"].map { self.curve($0, Self.child(pointer, "curve")) } ?? .linear
    guard let curve else { return nil }

    let forms = ["to", "keyframes", "visible", "hiddenDuring", "appear"].filter {
      fields[$0] != nil
    }
    guard forms.count == 1 else {
      report(
        pointer,
        forms.isEmpty
          ? "a track needs one of \"to\", \"keyframes\", \"visible\", \"hiddenDuring\", \"appear\""
          : "a track has one of " + forms.map { "\"\($0)\"" }.joined(separator: ", ")
            + ", not several")
      return nil
    }
    var initial = fields["from"].flatMap {
      self.value($0, Self.child(pointer, "from"), of: property, scope: scope)
    }
    if fields["from"] != nil, initial == nil { return nil }
    var keyframes: [KeyframeRule] = []
    switch forms[0] {
    case "to":
      let window =
        fields["over"].map { self.window($0, Self.child(pointer, "over"), scope: scope) }
        ?? (.number(0), .number(1))
      guard let window,
        let end = self.value(
          fields["to"]!, Self.child(pointer, "to"), of: property, scope: scope)
      else { return nil }
      keyframes = [
        KeyframeRule(start: window.0, end: window.1, duration: nil, value: end, curve: curve)
      ]
    case "keyframes":
      guard
        let elements = array(
          fields["keyframes"]!, Self.child(pointer, "keyframes"), maximum: Self.maximumKeyframes)
      else { return nil }
      for (index, element) in elements.enumerated() {
        let keyPointer = Self.child(Self.child(pointer, "keyframes"), index)
        guard
          let keyFields = object(element, keyPointer, allowed: Self.keyframeKeys),
          let startValue = keyFields["start"], let valueField = keyFields["value"]
        else {
          if case .object = element {
            report(keyPointer, "a keyframe needs \"start\" and \"value\"")
          }
          continue
        }
        let keyCurve =
          keyFields["curve"].map { self.curve($0, Self.child(keyPointer, "curve")) } ?? curve
        guard let start = expression(startValue, Self.child(keyPointer, "start"), scope: scope),
          let duration = expression(
            keyFields["duration"] ?? .number(0), Self.child(keyPointer, "duration"), scope: scope),
          let keyValue = self.value(
            valueField, Self.child(keyPointer, "value"), of: property, scope: scope),
          let keyCurve
        else { continue }
        keyframes.append(
          KeyframeRule(start: start, end: nil, duration: duration, value: keyValue, curve: keyCurve)
        )
      }
      guard !keyframes.isEmpty else {
        report(Self.child(pointer, "keyframes"), "needs at least one keyframe")
        return nil
      }
    default:
      guard property == .hidden else {
        report(Self.child(pointer, forms[0]), "\"\(forms[0])\" is for the hidden property")
        return nil
      }
      if fields["from"] != nil {
        report(Self.child(pointer, "from"), "\"\(forms[0])\" sets the value before it itself")
      }
      mode = .discrete
      func instant(_ expression: Expression, _ value: Bool) -> KeyframeRule {
        KeyframeRule(
          start: expression, end: expression, duration: nil, value: .bool(value), curve: .linear)
      }
      switch forms[0] {
      case "appear":
        guard let at = expression(fields["appear"]!, Self.child(pointer, "appear"), scope: scope)
        else { return nil }
        initial = .bool(true)
        keyframes = [instant(at, false)]
      default:
        let visible = forms[0] == "visible"
        guard let window = window(fields[forms[0]]!, Self.child(pointer, forms[0]), scope: scope)
        else { return nil }
        initial = .bool(visible)
        keyframes = [instant(window.0, !visible), instant(window.1, visible)]
      }
    }
    return TrackRule(
      property: property, pointer: pointer, only: only, when: when, mirrors: mirrors, mode: mode,
      initial: initial,
      keyframes: keyframes)
  }

  mutating func window(_ value: JSONValue, _ pointer: String, scope: Set<String>)
    -> (Expression, Expression)?
  {
    guard case .array(let elements) = value, elements.count == 2 else {
      report(pointer, "must be [start, end] (relative time)")
      return nil
    }
    guard let start = expression(elements[0], Self.child(pointer, 0), scope: scope),
      let end = expression(elements[1], Self.child(pointer, 1), scope: scope)
    else { return nil }
    return (start, end)
  }
}
