import TransitionJSON
import TransitionKit

/// Reads and validates a data animator file in one pass, collecting every problem with the
/// JSON pointer of the value at fault (docs/animators.md).
///
/// Nothing here evaluates an expression: names are checked against what each scope offers,
/// `let` variables for cycles, and everything else for shape, type and range. What can only
/// fail on a particular context (a division by zero, a missing `other` layer) fails when the
/// timeline is built.
struct AnimatorDocumentReader {
  /// The largest file read, in bytes.
  static let maximumFileBytes = 1 << 20
  /// Bounds on what a file may hold, so that building a timeline stays cheap.
  static let maximumRules = 256
  static let maximumTracks = 64
  static let maximumKeyframes = 256
  static let maximumParameters = 64
  static let maximumVariables = 256

  /// Names every context offers.
  static let contextNames: Set<String> = {
    var names: Set<String> = [
      "container.width", "container.height", "container.midX",
      "container.midY", "duration", "pi", "touch.x", "touch.y",
    ]
    for layer in ["selected", "match"] {
      for field in LayerFrameField.allCases { names.insert("\(layer).\(field.rawValue)") }
    }
    return names
  }()
  /// Names each layer of a rule adds.
  static let layerNames: Set<String> = {
    var names: Set<String> = ["index", "count"]
    for layer in ["layer", "other"] {
      for field in LayerFrameField.allCases { names.insert("\(layer).\(field.rawValue)") }
    }
    return names
  }()
  /// Names a rule's stagger adds.
  static let staggerNames: Set<String> = ["stagger", "distance", "farthest"]

  private(set) var issues: [ValidationIssue] = []
  private let file: String
  private let map: JSONSourceMap
  private var parameterNames: Set<String> = []
  /// The slots of the names read so far.
  private var nameSlots = NameSlots()
  private var globalNames: Set<String> = []

  private init(file: String, map: JSONSourceMap) {
    self.file = file
    self.map = map
  }

  /// Reads `bytes` as the data animator `name` (the file's name without `.json`).
  /// - Parameters:
  ///   - file: how messages name the file.
  /// - Returns: the document, or every problem found (at least one).
  static func read(_ bytes: some Collection<UInt8>, name: String, file: String)
    -> Result<AnimatorDocument, AnimatorFileError>
  {
    guard bytes.count <= maximumFileBytes else {
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: file, line: 1, column: 1, pointer: "",
            message: "the file has \(bytes.count) bytes, more than the limit of \(maximumFileBytes)"
          )
        ]))
    }
    let value: JSONValue
    let map: JSONSourceMap
    do {
      (value, map) = try JSONValue.parsingWithSourceMap(bytes)
    } catch {
      let (line, column) = JSONSourceMap(text: bytes).location(ofOffset: error.offset)
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: file, line: line, column: column, pointer: "",
            message: "not valid JSON: \(error.reason)")
        ]))
    }
    var reader = AnimatorDocumentReader(file: file, map: map)
    let document = reader.document(value, name: name)
    guard reader.issues.isEmpty, let document else {
      let issues = reader.issues.isEmpty ? [reader.issue("", "not an animator")] : reader.issues
      return .failure(
        AnimatorFileError(issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) }))
    }
    return .success(document)
  }

  // MARK: Reporting

  private func issue(_ pointer: String, _ message: String) -> ValidationIssue {
    let (line, column) = map.location(of: pointer)
    return ValidationIssue(
      file: file, line: line, column: column, pointer: pointer, message: message)
  }

  private mutating func report(_ pointer: String, _ message: String) {
    issues.append(issue(pointer, message))
  }

  private static func child(_ pointer: String, _ key: String) -> String {
    "\(pointer)/\(JSONSourceMap.escape(key))"
  }

  private static func child(_ pointer: String, _ index: Int) -> String { "\(pointer)/\(index)" }

  /// The members of an object, reporting other members than `allowed`; nil (reported) for a
  /// value that is not an object.
  private mutating func object(_ value: JSONValue, _ pointer: String, allowed: Set<String>)
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

  private mutating func array(_ value: JSONValue, _ pointer: String, maximum: Int) -> [JSONValue]? {
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

  private mutating func string(_ value: JSONValue, _ pointer: String) -> String? {
    guard case .string(let text) = value else {
      report(pointer, "must be a string")
      return nil
    }
    return text
  }

  private mutating func number(_ value: JSONValue, _ pointer: String) -> Double? {
    guard case .number(let number) = value else {
      report(pointer, "must be a number")
      return nil
    }
    return number
  }

  private mutating func bool(_ value: JSONValue, _ pointer: String) -> Bool? {
    guard case .bool(let flag) = value else {
      report(pointer, "must be true or false")
      return nil
    }
    return flag
  }

  // MARK: The document

  static let documentKeys: Set<String> = [
    "$schema", "description", "params", "let", "requires", "operations", "reduced",
  ]

  private mutating func document(_ value: JSONValue, name: String) -> AnimatorDocument? {
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
    return AnimatorDocument(
      name: name, parameters: parameters, variables: variables,
      requiresSelected: requiresSelected, requiresMatch: requiresMatch, plans: plans,
      reduced: reduced, nameSlots: nameSlots)
  }

  private mutating func parameters(_ value: JSONValue, _ pointer: String) -> [AnimatorParameter] {
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
  private func offset(_ pointer: String, _ key: String) -> Int {
    map.offsets[Self.child(pointer, key)] ?? 0
  }

  private mutating func checkVariableName(_ name: String, _ pointer: String) -> Bool {
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
  private mutating func bindings(
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
  private mutating func expression(_ value: JSONValue, _ pointer: String, scope: Set<String>)
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

  private func unknownNameMessage(_ name: String, scope: Set<String>) -> String {
    if Self.layerNames.contains(name) {
      return "\"\(name)\" is a layer's name: only rules' values may read it"
    }
    if Self.staggerNames.contains(name) {
      return "\"\(name)\" needs a \"stagger\" in the rule"
    }
    let near = scope.filter { editDistance($0, name) <= 2 }.sorted()
    return "unknown name \"\(name)\"" + (near.isEmpty ? "" : " (did you mean \(near[0])?)")
  }

  // MARK: Operations

  private mutating func plans(_ value: JSONValue, _ pointer: String)
    -> [TransitionOperation: OperationPlan]
  {
    let names = Set(TransitionOperation.allCases.map(\.rawValue))
    guard let members = object(value, pointer, allowed: names) else { return [:] }
    guard !members.isEmpty else {
      report(pointer, "must name at least one operation")
      return [:]
    }
    var plans: [TransitionOperation: OperationPlan] = [:]
    var mirrors: [(TransitionOperation, String, [String: JSONValue])] = []
    for operation in TransitionOperation.allCases {
      guard let entry = members[operation.rawValue] else { continue }
      let entryPointer = Self.child(pointer, operation.rawValue)
      guard
        let fields = object(
          entry, entryPointer, allowed: Self.operationKeys)
      else { continue }
      if fields["mirror"] != nil || fields["like"] != nil {
        mirrors.append((operation, entryPointer, fields))
        continue
      }
      guard let rulesValue = fields["rules"] else {
        report(entryPointer, "needs \"rules\", or \"mirror\" or \"like\" naming another operation")
        continue
      }
      guard let durationValue = fields["duration"] else {
        report(entryPointer, "needs \"duration\" (seconds)")
        continue
      }
      let duration = self.duration(durationValue, Self.child(entryPointer, "duration"))
      let curve =
        fields["curve"].map { self.curve($0, Self.child(entryPointer, "curve")) } ?? .linear
      let rules = self.rules(rulesValue, Self.child(entryPointer, "rules"))
      let gestures = fields["gesture"].map {
        self.gestures($0, Self.child(entryPointer, "gesture"))
      }
      if let duration {
        plans[operation] = OperationPlan(
          duration: duration, curve: curve ?? .linear, rules: rules, mirrored: false,
          gestures: gestures ?? [])
      }
    }
    for (operation, entryPointer, fields) in mirrors {
      if fields["rules"] != nil {
        report(Self.child(entryPointer, "rules"), "an operation that plays another has no rules")
      }
      let mirrored = fields["mirror"] != nil
      let key = mirrored ? "mirror" : "like"
      if fields["mirror"] != nil, fields["like"] != nil {
        report(entryPointer, "\"mirror\" and \"like\" cannot both be given")
        continue
      }
      guard let sourceName = string(fields[key]!, Self.child(entryPointer, key)) else { continue }
      guard let source = TransitionOperation(rawValue: sourceName).flatMap({ plans[$0] }) else {
        report(
          Self.child(entryPointer, key),
          "\"\(sourceName)\" is not an operation of this file with its own rules")
        continue
      }
      var plan = source
      plan.mirrored = mirrored
      plan.gestures =
        fields["gesture"].map { self.gestures($0, Self.child(entryPointer, "gesture")) } ?? []
      if let durationValue = fields["duration"] {
        guard let duration = duration(durationValue, Self.child(entryPointer, "duration")) else {
          continue
        }
        plan.duration = duration
      }
      if let curveValue = fields["curve"] {
        guard let curve = curve(curveValue, Self.child(entryPointer, "curve")) else { continue }
        plan.curve = curve
      }
      plans[operation] = plan
    }
    return plans
  }

  /// The top-level `reduced`: the form every operation plays with reduced motion, its rules
  /// as written (`from` and `to` are the context's, whatever the operation).
  private mutating func reducedPlan(_ value: JSONValue, _ pointer: String) -> OperationPlan? {
    guard
      let fields = object(value, pointer, allowed: ["description", "duration", "curve", "rules"])
    else {
      return nil
    }
    guard let rulesValue = fields["rules"], let durationValue = fields["duration"] else {
      report(pointer, "needs \"duration\" (seconds) and \"rules\"")
      return nil
    }
    let duration = self.duration(durationValue, Self.child(pointer, "duration"))
    let curve = fields["curve"].map { self.curve($0, Self.child(pointer, "curve")) } ?? .linear
    let rules = self.rules(rulesValue, Self.child(pointer, "rules"))
    guard let duration else { return nil }
    return OperationPlan(duration: duration, curve: curve ?? .linear, rules: rules, mirrored: false)
  }

  private mutating func duration(_ value: JSONValue, _ pointer: String) -> Double? {
    guard let seconds = number(value, pointer) else { return nil }
    guard seconds > 0, seconds <= Timeline.maximumDuration else {
      report(pointer, "must be in (0, \(JSONValue.format(Timeline.maximumDuration))] seconds")
      return nil
    }
    return seconds
  }

  private mutating func curve(_ value: JSONValue, _ pointer: String) -> TimingCurve? {
    do {
      return try TimingCurve(json: JSONField(value, path: "")).validated()
    } catch {
      let message = error.message
      report(pointer, message.hasPrefix(": ") ? String(message.dropFirst(2)) : message)
      return nil
    }
  }

  // MARK: Rules

  static let operationKeys: Set<String> = [
    "duration", "curve", "rules", "mirror", "like", "gesture",
  ]
  static let gestureKeys: Set<String> = ["hold", "axis", "range", "direction", "when"]

  /// An operation's `gesture`: one object, or a list of them tried in order (each with its
  /// `when`).
  private mutating func gestures(_ value: JSONValue, _ pointer: String) -> [GesturePlan] {
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

  private mutating func gesture(_ value: JSONValue, _ pointer: String) -> GesturePlan? {
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
    guard let axis, let range else { return nil }
    return GesturePlan(
      pointer: pointer, when: when, hold: hold, axis: axis, range: range, direction: direction)
  }
  static let keyframeKeys: Set<String> = ["start", "duration", "value", "curve"]
  static let staggerKeys: Set<String> = ["from", "by", "among"]

  static let ruleKeys: Set<String> = [
    "select", "add", "background", "frame", "color", "content", "copy", "when", "let", "set",
    "stagger", "tracks", "description",
  ]

  private mutating func rules(_ value: JSONValue, _ pointer: String) -> [Rule] {
    guard let elements = array(value, pointer, maximum: Self.maximumRules) else { return [] }
    var rules: [Rule] = []
    for (index, element) in elements.enumerated() {
      if let rule = rule(element, Self.child(pointer, index)) { rules.append(rule) }
    }
    return rules
  }

  private mutating func rule(_ value: JSONValue, _ pointer: String) -> Rule? {
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
            members[key]!, Self.child(setPointer, key), kind: property.kind, scope: scope)
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

  private mutating func added(_ value: JSONValue, _ fields: [String: JSONValue], _ pointer: String)
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

  private mutating func layerReference(_ value: JSONValue, _ pointer: String) -> LayerReference? {
    guard let text = string(value, pointer) else { return nil }
    guard let reference = LayerReference(rawValue: text), reference != .layer else {
      report(pointer, "must be \"selected\" or \"match\", got \"\(text)\"")
      return nil
    }
    return reference
  }

  private mutating func condition(_ value: JSONValue, _ pointer: String) -> ContextCondition {
    guard let fields = object(value, pointer, allowed: ["match", "selected"]) else {
      return .always
    }
    var condition = ContextCondition()
    condition.match = fields["match"].flatMap { bool($0, Self.child(pointer, "match")) }
    condition.selected = fields["selected"].flatMap { bool($0, Self.child(pointer, "selected")) }
    return condition
  }

  static let selectorKeys: Set<String> = [
    "screen", "role", "id", "selected", "match", "pair", "paired", "background", "not",
  ]

  private mutating func selector(_ value: JSONValue, _ pointer: String, depth: Int = 0)
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

  private mutating func stagger(_ value: JSONValue, _ pointer: String) -> Stagger? {
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

  // MARK: Values and colours

  private mutating func colors(_ value: JSONValue, _ pointer: String, layerAllowed: Bool)
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

  /// A value of `kind`: an expression for a number, a list of expressions for a point, size,
  /// rect or transform, `true`/`false` for a bool, a colour list for a colour.
  private mutating func value(
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

  // MARK: Tracks

  static let trackKeys: Set<String> = [
    "property", "from", "to", "over", "curve", "keyframes", "mode", "visible", "hiddenDuring",
    "appear", "if", "when", "mirror",
  ]

  private mutating func track(_ value: JSONValue, _ pointer: String, scope: Set<String>)
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
      self.value($0, Self.child(pointer, "from"), kind: property.kind, scope: scope)
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
          fields["to"]!, Self.child(pointer, "to"), kind: property.kind, scope: scope)
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
            valueField, Self.child(keyPointer, "value"), kind: property.kind, scope: scope),
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

  private mutating func window(_ value: JSONValue, _ pointer: String, scope: Set<String>)
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

/// The fields of a layer's frame that expressions read: `layer.midX` and so on.
enum LayerFrameField: String, CaseIterable, Sendable {
  case x, y, width, height, midX, midY, maxX, maxY

  /// `<reference>.<field>`, the expression name of this field of `reference` (`layer`,
  /// `other`, `selected` or `match`).
  func name(of reference: String) -> String { "\(reference).\(rawValue)" }

  /// The names of every field of the layer a rule draws (`layer.x` …) and of its matched
  /// counterpart (`other.x` …), in `allCases` order: made once, as every layer drawn names them.
  static let layerNames = allCases.map { $0.name(of: "layer") }
  static let otherNames = allCases.map { $0.name(of: "other") }

  func value(of rect: Rect) -> Double {
    switch self {
    case .x: rect.minX
    case .y: rect.minY
    case .width: rect.width
    case .height: rect.height
    case .midX: rect.midX
    case .midY: rect.midY
    case .maxX: rect.maxX
    case .maxY: rect.maxY
    }
  }
}

/// The Levenshtein distance between two short names, for "did you mean".
private func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}
