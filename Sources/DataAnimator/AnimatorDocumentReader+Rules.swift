import TransitionJSON
import TransitionKit

/// Rules: gestures, selections, added layers, conditions, selectors and staggers.
extension AnimatorDocumentReader {
  static let operationKeys: Set<String> = [
    "duration", "curve", "rules", "mirror", "like", "gesture",
  ]
  static let gestureKeys: Set<String> = ["hold", "axis", "range", "direction", "follow", "when"]

  /// An operation's `gesture`: one object, or a list of them tried in order (each with its
  /// `when`).
  mutating func gestures(_ value: JSONValue, _ pointer: String) -> [GesturePlan] {
    guard case .array(let elements) = value else {
      return gesture(value, pointer).map { [$0] } ?? []
    }
    guard !elements.isEmpty, elements.count <= 16 else {
      report(pointer, "must be a gesture or a list of 1 to 16 gestures")
      return []
    }
    return elements.enumerated().compactMap { index, element in
      gesture(element, Self.child(pointer, index))
    }
  }

  mutating func gesture(_ value: JSONValue, _ pointer: String) -> GesturePlan? {
    guard let fields = object(value, pointer, allowed: Self.gestureKeys) else { return nil }
    let when = fields["when"].map { condition($0, Self.child(pointer, "when")) } ?? .always
    var hold: [LayerSelector] = []
    let holdPointer = Self.child(pointer, "hold")
    switch fields["hold"] {
    case nil: report(pointer, "needs \"hold\" (a selector or a list of selectors)")
    case .array(let selectors)?:
      if selectors.isEmpty || selectors.count > 16 {
        report(holdPointer, "must list 1 to 16 selectors")
      }
      for (index, element) in selectors.prefix(16).enumerated() {
        if let parsed = selector(element, Self.child(holdPointer, index)) { hold.append(parsed) }
      }
    case let element?:
      if let parsed = selector(element, holdPointer) { hold.append(parsed) }
    }
    var axis: TimelineGesture.Axis?
    if let axisValue = fields["axis"] {
      if let name = string(axisValue, Self.child(pointer, "axis")) {
        axis = TimelineGesture.Axis(rawValue: name)
        if axis == nil { report(Self.child(pointer, "axis"), "must be x, y or distance") }
      }
    } else {
      report(pointer, "needs \"axis\" (x, y or distance)")
    }
    var range: Expression?
    if let rangeValue = fields["range"] {
      range = expression(rangeValue, Self.child(pointer, "range"), scope: globalNames)
    } else {
      report(pointer, "needs \"range\" (the points of drag from progress 0 to 1)")
    }
    var direction = 1.0
    if let directionValue = fields["direction"] {
      let directionPointer = Self.child(pointer, "direction")
      if let number = number(directionValue, directionPointer) {
        if number == 1 || number == -1 {
          direction = number
        } else {
          report(directionPointer, "must be 1 or -1")
        }
      }
    }
    var followsAxisOnly = false
    if let followValue = fields["follow"],
      let name = string(followValue, Self.child(pointer, "follow"))
    {
      switch name {
      case "point": followsAxisOnly = false
      case "axis": followsAxisOnly = true
      default: report(Self.child(pointer, "follow"), "must be point or axis")
      }
    }
    guard let axis, let range else { return nil }
    return GesturePlan(
      pointer: pointer, when: when, hold: hold, axis: axis, range: range, direction: direction,
      followsAxisOnly: followsAxisOnly)
  }
  static let keyframeKeys: Set<String> = ["start", "duration", "value", "curve"]
  static let staggerKeys: Set<String> = ["from", "by", "among"]

  static let ruleKeys: Set<String> = [
    "select", "add", "background", "frame", "color", "content", "copy", "when", "let", "set",
    "stagger", "tracks", "description",
  ]

  mutating func rules(_ value: JSONValue, _ pointer: String) -> [Rule] {
    guard let elements = array(value, pointer, maximum: Self.maximumRules) else { return [] }
    var rules: [Rule] = []
    for (index, element) in elements.enumerated() {
      if let rule = rule(element, Self.child(pointer, index)) { rules.append(rule) }
    }
    checkClips(rules)
    return rules
  }

  /// Reports each `clipTo` of `rules` that names a layer none of them adds.
  mutating func checkClips(_ rules: [Rule]) {
    var added: Set<String> = []
    for rule in rules {
      if case .add(let name, _, _, _) = rule.source { added.insert(name) }
    }
    func unknown(_ value: ValueExpression?) -> String? {
      guard case .layer(.added(let name)) = value, !added.contains(name) else { return nil }
      return name
    }
    for rule in rules {
      for (property, value) in rule.initial {
        guard let name = unknown(value) else { continue }
        report(
          Self.child(Self.child(rule.pointer, "set"), property.rawValue),
          "clipTo names \"\(name)\", which is not selected, match, null or a layer these rules add")
      }
      for track in rule.tracks
      where unknown(track.initial) != nil
        || track.keyframes.contains(where: { unknown($0.value) != nil })
      {
        report(
          track.pointer,
          "clipTo names a layer that is not selected, match, null or a layer these rules add")
      }
    }
  }

  mutating func rule(_ value: JSONValue, _ pointer: String) -> Rule? {
    guard let fields = object(value, pointer, allowed: Self.ruleKeys) else { return nil }
    if let description = fields["description"] {
      _ = string(description, Self.child(pointer, "description"))
    }
    let source: Rule.Source?
    switch (fields["select"], fields["add"]) {
    case (let select?, nil):
      for key in ["frame", "color", "content", "copy"] where fields[key] != nil {
        report(Self.child(pointer, key), "only a rule that adds a layer has \"\(key)\"")
      }
      let selector = self.selector(select, Self.child(pointer, "select"))
      var background: [ColorChoice]? = nil
      if let backgroundValue = fields["background"] {
        let backgroundPointer = Self.child(pointer, "background")
        if selector?.screen == nil {
          report(backgroundPointer, "a rule that draws a screen's background selects one screen")
        }
        if case .bool(let flag) = backgroundValue {
          background = flag ? [.screenBackground(selector?.screen ?? .from)] : nil
        } else {
          background = colors(backgroundValue, backgroundPointer, layerAllowed: false)
        }
      }
      source = selector.map { .select($0, background: background) }
    case (nil, let add?):
      if fields["background"] != nil {
        report(
          Self.child(pointer, "background"), "only a rule that selects a screen has \"background\"")
      }
      source = added(add, fields, pointer)
    case (nil, nil):
      report(pointer, "a rule needs \"select\" (context layers) or \"add\" (a layer of its own)")
      source = nil
    case (_?, _?):
      report(pointer, "a rule has \"select\" or \"add\", not both")
      source = nil
    }
    let when = fields["when"].map { condition($0, Self.child(pointer, "when")) } ?? .always
    let isSelect: Bool = {
      if case .select = source { return true }
      return false
    }()
    var scope = globalNames.union(Self.layerNames)
    var stagger: Stagger? = nil
    if let staggerValue = fields["stagger"] {
      if !isSelect {
        report(Self.child(pointer, "stagger"), "only a rule that selects layers staggers them")
      }
      stagger = self.stagger(staggerValue, Self.child(pointer, "stagger"))
      scope.formUnion(Self.staggerNames)
    }
    let variables =
      fields["let"].map {
        bindings($0, Self.child(pointer, "let"), scope: scope, layerScope: true)
      } ?? []
    scope.formUnion(variables.map(\.name))
    var initial: [(LayerProperty, ValueExpression)] = []
    if let setValue = fields["set"] {
      let setPointer = Self.child(pointer, "set")
      let allowed = Set(LayerProperty.allCases.map(\.rawValue))
      if let members = object(setValue, setPointer, allowed: allowed) {
        for key in members.keys.sorted(by: { offset(setPointer, $0) < offset(setPointer, $1) }) {
          guard let property = LayerProperty(rawValue: key) else { continue }
          if let value = self.value(
            members[key]!, Self.child(setPointer, key), of: property, scope: scope)
          {
            initial.append((property, value))
          }
        }
      }
    }
    var tracks: [TrackRule] = []
    if let tracksValue = fields["tracks"],
      let elements = array(tracksValue, Self.child(pointer, "tracks"), maximum: Self.maximumTracks)
    {
      for (index, element) in elements.enumerated() {
        if let track = track(
          element, Self.child(Self.child(pointer, "tracks"), index), scope: scope)
        {
          tracks.append(track)
        }
      }
    }
    guard let source else { return nil }
    return Rule(
      source: source, pointer: pointer, when: when, variables: variables, initial: initial,
      stagger: stagger,
      tracks: tracks)
  }

  mutating func added(_ value: JSONValue, _ fields: [String: JSONValue], _ pointer: String)
    -> Rule.Source?
  {
    let addPointer = Self.child(pointer, "add")
    guard let name = string(value, addPointer) else { return nil }
    guard AnimatorName.isValid(name) else {
      report(addPointer, "\"\(name)\" is not a layer name: \(AnimatorName.rule)")
      return nil
    }
    var frame = Rule.AddedFrame.container
    var color: [ColorChoice] = []
    var content: LayerReference? = nil
    if let copy = fields["copy"] {
      let copyPointer = Self.child(pointer, "copy")
      guard let reference = layerReference(copy, copyPointer) else { return nil }
      frame = .layer(reference)
      color = [.layerBackground(reference)]
      content = reference
      for key in ["frame", "content"] where fields[key] != nil {
        report(Self.child(pointer, key), "a copy takes its \(key) from the layer it copies")
      }
    }
    if let frameValue = fields["frame"] {
      let framePointer = Self.child(pointer, "frame")
      if case .string(let text) = frameValue, text == "container" {
        frame = .container
      } else if case .string = frameValue {
        guard let reference = layerReference(frameValue, framePointer) else { return nil }
        frame = .layer(reference)
      } else if case .numbers(let expressions, _)? = self.value(
        frameValue, framePointer, kind: .rect, scope: globalNames)
      {
        frame = .rect(expressions)
      } else {
        return nil
      }
    }
    if let colorValue = fields["color"] {
      guard let choices = colors(colorValue, Self.child(pointer, "color"), layerAllowed: false)
      else { return nil }
      color = choices
    }
    if let contentValue = fields["content"] {
      guard let reference = layerReference(contentValue, Self.child(pointer, "content")) else {
        return nil
      }
      content = reference
    }
    return .add(name: name, frame: frame, color: color, content: content)
  }

  mutating func layerReference(_ value: JSONValue, _ pointer: String) -> LayerReference? {
    guard let text = string(value, pointer) else { return nil }
    guard let reference = LayerReference(rawValue: text), reference != .layer else {
      report(pointer, "must be \"selected\" or \"match\", got \"\(text)\"")
      return nil
    }
    return reference
  }

  mutating func condition(_ value: JSONValue, _ pointer: String) -> ContextCondition {
    guard let fields = object(value, pointer, allowed: ["match", "selected", "touch"]) else {
      return .always
    }
    var condition = ContextCondition()
    condition.match = fields["match"].flatMap { bool($0, Self.child(pointer, "match")) }
    condition.selected = fields["selected"].flatMap { bool($0, Self.child(pointer, "selected")) }
    condition.touch = fields["touch"].flatMap { bool($0, Self.child(pointer, "touch")) }
    return condition
  }

  static let selectorKeys: Set<String> = [
    "screen", "role", "id", "selected", "match", "pair", "paired", "background", "not",
  ]

  mutating func selector(_ value: JSONValue, _ pointer: String, depth: Int = 0)
    -> LayerSelector?
  {
    guard depth < 8 else {
      report(pointer, "selectors nest at most 8 deep")
      return nil
    }
    guard let fields = object(value, pointer, allowed: Self.selectorKeys) else { return nil }
    var parsed = LayerSelector()
    if let screen = fields["screen"], let name = string(screen, Self.child(pointer, "screen")) {
      parsed.screen = ScreenSide(rawValue: name)
      if parsed.screen == nil {
        report(Self.child(pointer, "screen"), "must be \"from\" or \"to\", got \"\(name)\"")
      }
    }
    parsed.role = fields["role"].flatMap { string($0, Self.child(pointer, "role")) }
    parsed.id = fields["id"].flatMap { string($0, Self.child(pointer, "id")) }
    parsed.selected = fields["selected"].flatMap { bool($0, Self.child(pointer, "selected")) }
    parsed.match = fields["match"].flatMap { bool($0, Self.child(pointer, "match")) }
    parsed.pair = fields["pair"].flatMap { bool($0, Self.child(pointer, "pair")) }
    parsed.paired = fields["paired"].flatMap { bool($0, Self.child(pointer, "paired")) }
    parsed.background = fields["background"].flatMap {
      bool($0, Self.child(pointer, "background"))
    }
    if let not = fields["not"] {
      let notPointer = Self.child(pointer, "not")
      if case .array(let elements) = not {
        for (index, element) in elements.enumerated() {
          if let inner = selector(element, Self.child(notPointer, index), depth: depth + 1) {
            parsed.not.append(inner)
          }
        }
      } else if let inner = selector(not, notPointer, depth: depth + 1) {
        parsed.not.append(inner)
      }
    }
    return parsed
  }

  mutating func stagger(_ value: JSONValue, _ pointer: String) -> Stagger? {
    guard let fields = object(value, pointer, allowed: Self.staggerKeys) else { return nil }
    var stagger = Stagger(origin: .container, measure: .distance, among: .any)
    if let by = fields["by"], let name = string(by, Self.child(pointer, "by")) {
      guard let measure = Stagger.Measure(rawValue: name) else {
        report(Self.child(pointer, "by"), "must be \"distance\" or \"index\", got \"\(name)\"")
        return nil
      }
      stagger.measure = measure
    }
    if let from = fields["from"] {
      let fromPointer = Self.child(pointer, "from")
      switch from {
      case .string("container"): stagger.origin = .container
      case .string:
        guard let reference = layerReference(from, fromPointer) else { return nil }
        stagger.origin = .layer(reference)
      case .array(let elements) where elements.count == 2:
        guard let x = expression(elements[0], Self.child(fromPointer, 0), scope: globalNames),
          let y = expression(elements[1], Self.child(fromPointer, 1), scope: globalNames)
        else { return nil }
        stagger.origin = .point(x, y)
      default:
        report(fromPointer, "must be \"container\", \"selected\", \"match\" or [x, y]")
        return nil
      }
    }
    if let among = fields["among"] {
      guard let selector = selector(among, Self.child(pointer, "among")) else { return nil }
      stagger.among = selector
    }
    return stagger
  }
}
