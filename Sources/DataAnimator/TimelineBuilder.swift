import TransitionJSON
import TransitionKit

/// Builds one timeline: the rules of one plan applied to one context.
struct TimelineBuilder {
  let document: AnimatorDocument
  let plan: OperationPlan
  let context: TransitionContext
  let duration: Double
  /// Global variables by slot (``NameSlots``): the context's names, the parameters and the
  /// `let` variables.
  var globals: [Double?]
  /// The slots of the names each layer drawn sets.
  let layerSlots: LayerSlots
  var layers: [TimelineLayer] = []
  /// Ids of context layers a rule has drawn: a later rule does not take them again.
  var claimed: Set<String> = []
  /// How many layers the rules have drawn so far.
  var drawn = 0
  /// The cells `Screen.inferredCellIDs` finds on the `from` and `to` screens (as the rules name
  /// them), worked out once; nil for a screen that names roles.
  var inferredFromCells: Set<String>?
  var inferredToCells: Set<String>?
  /// The plan's first gesture whose `when` holds; nil without one.
  var gesturePlan: GesturePlan?
  /// The ids of the layers drawn so far that the gesture holds, in paint order.
  var heldIDs: [String] = []
  /// The screens (as the rules name them) on which a rule's selector asks for cells.
  var usedInferredCells: Set<ScreenSide> {
    var sides: Set<ScreenSide> = []
    for rule in plan.rules {
      guard case .select(let selector, _) = rule.source else { continue }
      let selectors =
        [selector] + rule.tracks.compactMap(\.only) + (rule.stagger.map { [$0.among] } ?? [])
      guard selectors.contains(where: \.asksForCells) else { continue }
      sides.formUnion(selector.screen.map { [$0] } ?? [.from, .to])
    }
    return sides.filter { inferredCells($0) != nil && !screen($0).layers.isEmpty }
  }

  /// The cells inferred on the screen the rules call `side`; nil when it names roles.
  func inferredCells(_ side: ScreenSide) -> Set<String>? {
    side == .from ? inferredFromCells : inferredToCells
  }

  init(
    document: AnimatorDocument, plan: OperationPlan, context: TransitionContext, duration: Double
  )
    throws(EngineError)
  {
    self.document = document
    self.plan = plan
    self.context = context
    self.duration = duration
    globals = Array(repeating: nil, count: document.nameSlots.count)
    layerSlots = LayerSlots(document.nameSlots)
    setGlobal("container.width", context.container.width)
    setGlobal("container.height", context.container.height)
    setGlobal("container.midX", context.container.width / 2)
    setGlobal("container.midY", context.container.height / 2)
    setGlobal("duration", duration)
    setGlobal("pi", Double.pi)
    let touch = Self.touch(in: context)
    setGlobal("touch.x", touch.x)
    setGlobal("touch.y", touch.y)
    for (reference, layer) in [("selected", selectedLayer), ("match", matchLayer)] {
      guard let layer else { continue }
      for field in LayerExpressionField.allCases {
        setGlobal(field.name(of: reference), field.value(of: layer))
      }
    }
    if !screen(.from).namesRoles {
      inferredFromCells = screen(.from).inferredCellIDs(in: context.container)
    }
    if !screen(.to).namesRoles {
      inferredToCells = screen(.to).inferredCellIDs(in: context.container)
    }
    gesturePlan = plan.gestures.first { holds($0.when) }
    try setParameters()
    // A context the file declines is not evaluated: its variables may read what it lacks.
    guard accepts else { return }
    for binding in document.variables {
      let value = try evaluate(
        binding.expression, "/let/\(binding.name)", ExpressionNames(globals))
      globals[binding.slot] = value
    }
  }

  /// Sets the global `name`, if anything of the document reads it.
  mutating func setGlobal(_ name: String, _ value: Double) {
    guard let slot = document.nameSlots.slot(of: name) else { return }
    globals[slot] = value
  }

  /// Where the finger went down (the context's `touch`, which the daemon adds for an
  /// interactive `begin` with one); the container's centre without one.
  static func touch(in context: TransitionContext) -> Point {
    let centre = Point(x: context.container.width / 2, y: context.container.height / 2)
    guard case .array(let elements)? = context.hints["touch"], elements.count == 2,
      case .number(let x) = elements[0], case .number(let y) = elements[1], x.isFinite, y.isFinite
    else { return centre }
    return Point(x: x, y: y)
  }

  /// The context's screen that the rules call `side`: swapped when the plan is mirrored.
  func screen(_ side: ScreenSide) -> Screen {
    actualSide(side) == .from ? context.from : context.to
  }

  func actualSide(_ side: ScreenSide) -> ScreenSide {
    plan.mirrored ? side.other : side
  }

  var selectedLayer: ContextLayer? { context.selectedLayer }
  var matchLayer: ContextLayer? {
    context.match.flatMap { context.from.layer($0) ?? context.to.layer($0) }
  }

  /// Whether the context has what the file requires: a selected layer on the `from` screen
  /// (as the rules are written), a match.
  var accepts: Bool {
    if document.requiresSelected, screen(.from).layer(context.selected) == nil { return false }
    if document.requiresMatch, matchLayer == nil { return false }
    return true
  }

  mutating func setParameters() throws(EngineError) {
    var given: [String: JSONValue] = [:]
    if let params = context.hints["params"] {
      guard case .object(let members) = params else {
        throw EngineError(.invalidValue, "params must be an object of numbers")
      }
      given = members
    }
    for name in given.keys.sorted() where !document.parameters.contains(where: { $0.name == name })
    {
      let known = document.parameters.map(\.name).joined(separator: ", ")
      throw EngineError(
        .invalidValue,
        "params.\(name) is not a parameter of \(document.name)"
          + (known.isEmpty ? " (it has none)" : " (it has \(known))"))
    }
    for parameter in document.parameters {
      guard let value = given[parameter.name] else {
        setGlobal(parameter.name, parameter.defaultValue)
        continue
      }
      guard case .number(let number) = value, parameter.range.contains(number) else {
        throw EngineError(
          .outOfRange,
          "params.\(parameter.name) must be a number in [\(JSONValue.format(parameter.range.lowerBound)), "
            + "\(JSONValue.format(parameter.range.upperBound))]")
      }
      setGlobal(parameter.name, number)
    }
  }

  /// The value of `expression` with `names`; `pointer` (worked out only for an error) says
  /// where in the file it is.
  func evaluate(
    _ expression: Expression, _ pointer: @autoclosure () -> String, _ names: ExpressionNames
  ) throws(EngineError) -> Double {
    do {
      return try expression.evaluate(in: names)
    } catch {
      throw EngineError(.invalidValue, "\(document.name).json \(pointer()): \(error.message)")
    }
  }

  func holds(_ condition: ContextCondition) -> Bool {
    if let match = condition.match, match != (matchLayer != nil) { return false }
    if let selected = condition.selected, selected != (selectedLayer != nil) { return false }
    if let touch = condition.touch, touch != (context.hints["touch"] != nil) { return false }
    return true
  }

  // MARK: Rules

  /// The slots of the names a rule gives each layer it draws (nil: nothing reads the name).
  struct LayerSlots {
    var layer: [Int?]
    var other: [Int?]
    var index: Int?
    var count: Int?
    var stagger: Int?
    var distance: Int?
    var farthest: Int?

    init(_ slots: NameSlots) {
      layer = LayerExpressionField.layerNames.map { slots.slot(of: $0) }
      other = LayerExpressionField.otherNames.map { slots.slot(of: $0) }
      index = slots.slot(of: "index")
      count = slots.slot(of: "count")
      stagger = slots.slot(of: "stagger")
      distance = slots.slot(of: "distance")
      farthest = slots.slot(of: "farthest")
    }
  }

  /// A layer a rule draws: a context layer, a screen's background, or one the rule adds.
  struct Item {
    var layer: TimelineLayer
    var side: ScreenSide?
    var contextLayer: ContextLayer?
    var isBackground: Bool
  }

  mutating func build() throws(EngineError) -> Timeline {
    for (index, rule) in plan.rules.enumerated() where holds(rule.when) {
      try apply(rule, index: index)
    }
    var warnings: [String] = []
    let usedInferredCells = self.usedInferredCells
    for side in [ScreenSide.from, .to] where usedInferredCells.contains(side) {
      let cells = inferredCells(side) ?? []
      let screenName = actualSide(side).rawValue
      let size = screen(side).layers.first { cells.contains($0.id) }?.frame.size
      warnings.append(
        cells.isEmpty
          ? "\(document.name): no layer of the \(screenName) screen has a role, and no size is shared by two of them: no cells were found (give the cells role \"cell\")"
          : "\(document.name): no layer of the \(screenName) screen has a role; took the \(cells.count) layers of "
            + "\(JSONValue.format(size?.width ?? 0))×\(JSONValue.format(size?.height ?? 0)) points as its cells (give them role \"cell\")"
      )
    }
    if layers.isEmpty {
      layers.append(
        TimelineLayer(filling: context.container, id: "\(document.name).empty", color: .clear, z: 0)
      )
    }
    var timeline = try Timeline(
      duration: duration, curve: plan.curve, layers: layers, gesture: try gesture(),
      handover: document.handover)
    timeline.warnings = warnings
    return timeline
  }

  /// The plan's first gesture whose `when` holds, with the ids of the layers it holds in paint
  /// order; nil without one.
  func gesture() throws(EngineError) -> TimelineGesture? {
    guard let plan = gesturePlan else { return nil }
    let range = try evaluate(plan.range, "\(plan.pointer)/range", ExpressionNames(globals))
    guard range > 0, range <= TimelineGesture.maximumRange else {
      throw EngineError(
        .outOfRange,
        "\(document.name).json \(plan.pointer)/range: must be positive and at most "
          + "\(JSONValue.format(TimelineGesture.maximumRange)) points, got \(JSONValue.format(range))"
      )
    }
    return TimelineGesture(
      hold: heldIDs, axis: plan.axis, range: range, direction: plan.direction,
      followsAxisOnly: plan.followsAxisOnly)
  }

  mutating func apply(_ rule: Rule, index: Int) throws(EngineError) {
    var items: [Item] = []
    switch rule.source {
    case .select(let selector, let background):
      for side in selector.screen.map({ [$0] }) ?? [.from, .to] {
        let screen = self.screen(side)
        if let background, side == selector.screen, let color = resolve(background, layer: nil) {
          var item = Item(
            layer: TimelineLayer(
              filling: context.container,
              id: "\(document.name).\(actualSide(side).rawValue)-background", color: color, z: 0),
            side: side, contextLayer: nil, isBackground: true)
          if matches(selector, item) {
            item.layer.initial.z = nextZ()
            items.append(item)
          }
        }
        for layer in screen.layers where !claimed.contains(layer.id) {
          let item = Item(
            layer: TimelineLayer(layer, z: 0), side: side, contextLayer: layer, isBackground: false)
          guard matches(selector, item) else { continue }
          claimed.insert(layer.id)
          var placed = item
          placed.layer.initial.z = nextZ()
          items.append(placed)
        }
      }
    case .add(let name, let frame, let color, let content):
      var initial = LayerAttributes(frame: try rect(of: frame, rule))
      initial.background = resolve(color, layer: nil)
      initial.z = nextZ()
      // A frame taken from a context layer brings that layer's look (its corners, border and
      // shadow: a stand-in starts as the layer it stands in for), and a copy brings its whole
      // look (but not its clip, which names the context's layer).
      if case .layer(let boxReference) = frame, let box = reference(of: boxReference) {
        let look = TimelineLayer(box, z: 0).initial
        for property in LayerProperty.appearance where property != .clips && property != .clipTo {
          initial.set(property, to: look.value(of: property))
        }
      }
      if let copied = content.flatMap({ reference(of: $0) }) {
        var look = TimelineLayer(copied, z: 0).initial
        look.clipTo = nil
        for property in LayerProperty.appearance {
          initial.set(property, to: look.value(of: property))
        }
      }
      let contentValue = content.flatMap { reference(of: $0)?.content }
      items.append(
        Item(
          layer: TimelineLayer(
            id: "\(document.name).\(name)", initial: initial, content: contentValue),
          side: nil, contextLayer: nil, isBackground: false))
    }
    let staggerValues = try stagger(rule, items)
    var names = ExpressionNames(globals)
    for (position, item) in items.enumerated() {
      names.removeLocal()
      for (field, slot) in zip(LayerExpressionField.allCases, layerSlots.layer) {
        names.set(slot, field.value(of: item.layer.initial))
      }
      if let other = counterpart(of: item) {
        for (field, slot) in zip(LayerExpressionField.allCases, layerSlots.other) {
          names.set(slot, field.value(of: other))
        }
      }
      names.set(layerSlots.index, Double(position))
      names.set(layerSlots.count, Double(items.count))
      if let values = staggerValues[position] {
        names.set(layerSlots.stagger, values.stagger)
        names.set(layerSlots.distance, values.distance)
        names.set(layerSlots.farthest, values.farthest)
      }
      // A rule's variables in dependency order; one that cannot be evaluated for this layer
      // (it reads the stagger of a layer outside it) fails only if a value reads it.
      var unavailable: [String: EngineError] = [:]
      for binding in rule.variables {
        if !unavailable.isEmpty,
          let missing = binding.expression.names.first(where: { unavailable[$0] != nil })
        {
          unavailable[binding.name] = unavailable[missing]
          continue
        }
        do {
          names.set(
            binding.slot,
            try evaluate(binding.expression, "\(rule.pointer)/let/\(binding.name)", names))
        } catch {
          unavailable[binding.name] = error
        }
      }
      var layer = item.layer
      for (property, value) in rule.initial {
        layer.initial.set(
          property,
          to: try self.value(value, property: property, item: item, names, "\(rule.pointer)/set"))
      }
      layer.tracks.reserveCapacity(layer.tracks.count + rule.tracks.count)
      // By index: the tracks are read in place, not copied one by one.
      for index in rule.tracks.indices where holds(rule.tracks[index].when) {
        if let only = rule.tracks[index].only, !matches(only, item) { continue }
        try play(rule.tracks[index], on: &layer, item: item, names)
      }
      if let gesturePlan, gesturePlan.hold.contains(where: { matches($0, item) }) {
        heldIDs.append(layer.id)
      }
      layers.append(layer)
    }
  }

  /// The paint order of the next layer drawn: layers are drawn in the rules' order.
  mutating func nextZ() -> Double {
    defer { drawn += 1 }
    return Double(drawn)
  }

  func rect(of frame: Rule.AddedFrame, _ rule: Rule) throws(EngineError) -> Rect {
    switch frame {
    case .container:
      return Rect(x: 0, y: 0, width: context.container.width, height: context.container.height)
    case .layer(let reference):
      guard let layer = self.reference(of: reference) else {
        throw EngineError(
          .invalidValue,
          "\(document.name).json \(rule.pointer): the context has no \(reference.rawValue) layer")
      }
      return layer.frame
    case .rect(let expressions):
      var numbers: [Double] = []
      for (index, expression) in expressions.enumerated() {
        numbers.append(
          try evaluate(expression, "\(rule.pointer)/frame/\(index)", ExpressionNames(globals)))
      }
      return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
  }

  func reference(of reference: LayerReference) -> ContextLayer? {
    switch reference {
    case .selected: selectedLayer
    case .match: matchLayer
    case .layer: nil
    }
  }

  /// The other layer of a pair: the match for the selected layer and the selected layer for
  /// the match; else the layer of the other screen with the same `shared` name.
  func counterpart(of item: Item) -> ContextLayer? {
    guard let layer = item.contextLayer else { return nil }
    if layer.id == context.selected, let match = matchLayer { return match }
    if layer.id == context.match, let selected = selectedLayer { return selected }
    return context.partner(of: layer)
  }

  func resolve(_ choices: [ColorChoice], layer: ContextLayer?) -> Color? {
    for choice in choices {
      switch choice {
      case .literal(let color): return color
      case .screenBackground(let side):
        if let color = screen(side).background { return color }
      case .layerBackground(.layer):
        if let color = layer?.background { return color }
      case .layerBackground(let reference):
        if let color = self.reference(of: reference)?.background { return color }
      }
    }
    return nil
  }

  /// Whether the layer `item` passes `selector`.
  func matches(_ selector: LayerSelector, _ item: Item) -> Bool {
    if let side = selector.screen, item.side != side { return false }
    if let background = selector.background, background != item.isBackground { return false }
    // The context layer's fields are read in place: copying the layer would copy its content.
    let id = item.contextLayer?.id
    if let role = selector.role {
      guard let id else { return false }
      if role == ContextLayer.cellRole, let side = item.side, let cells = inferredCells(side) {
        guard cells.contains(id) else { return false }
      } else if item.contextLayer?.role != role {
        return false
      }
    }
    // An added layer answers to its full id (`<animator>.<name>`).
    if let selectorID = selector.id,
      (id ?? (item.isBackground || item.side != nil ? nil : item.layer.id)) != selectorID
    {
      return false
    }
    let isSelected = id != nil && id == context.selected
    let isMatch = id != nil && id == context.match
    if let selected = selector.selected, selected != isSelected { return false }
    if let match = selector.match, match != isMatch { return false }
    if let pair = selector.pair, pair != (isSelected || isMatch) { return false }
    if let paired = selector.paired,
      paired != (item.contextLayer.map { context.partner(of: $0) != nil } ?? false)
    {
      return false
    }
    for inner in selector.not where matches(inner, item) { return false }
    return true
  }
}
