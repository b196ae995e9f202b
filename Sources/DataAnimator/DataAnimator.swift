import TransitionJSON
import TransitionKit

/// An animator written as data: a validated `AnimatorDocument` that builds an ordinary timeline
/// for each context, so evaluation, streaming, interactive control and the exact cancel are
/// those of any other animator.
///
/// Building a timeline evaluates every expression once for the context (never per frame). What
/// fails only on a particular context (a division by zero, a value that is not finite, a
/// `params` value the file does not declare or outside its range) throws `EngineError`, which
/// the plugin host reports as the animator failing, exactly as a plugin's bad timeline.
public struct DataAnimator: Animator {
  let document: AnimatorDocument

  public var name: String { document.name }
  public var operations: Set<TransitionOperation> { Set(document.plans.keys) }
  /// The duration of the first operation served, in the protocol's order.
  public var defaultDuration: Double {
    TransitionOperation.allCases.lazy.compactMap { document.plans[$0]?.duration }.first ?? 1
  }
  /// The largest file `read` accepts, in bytes.
  public static let maximumFileBytes = AnimatorDocumentReader.maximumFileBytes

  /// The knobs a `begin` may set with `params`.
  public var parameters: [AnimatorParameter] { document.parameters }

  /// Reads a data animator file.
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - name: the animator's name, the file's name without `.json`.
  ///   - file: how messages name the file (its path).
  /// - Returns: the animator, or every problem found in the file (at least one).
  public static func read(_ bytes: some Collection<UInt8>, name: String, file: String)
    -> Result<DataAnimator, AnimatorFileError>
  {
    AnimatorDocumentReader.read(bytes, name: name, file: file).map(DataAnimator.init)
  }

  init(document: AnimatorDocument) {
    self.document = document
  }

  public func defaultDuration(for operation: TransitionOperation) -> Double {
    document.plans[operation]?.duration ?? defaultDuration
  }

  /// Whether the file gives a reduced form (`reduced`), which every operation plays when the
  /// context asks for reduced motion.
  public var hasReducedForm: Bool { document.reduced != nil }

  /// The plan that plays for `context`: the reduced form when the context's `reduceMotion` is
  /// true and the file has one (for an operation the file serves), else the operation's.
  func plan(for context: TransitionContext) -> OperationPlan? {
    guard let plan = document.plans[context.operation] else { return nil }
    if case .bool(true)? = context.hints[TransitionContext.reduceMotionKey],
      let reduced = document.reduced
    {
      return reduced
    }
    return plan
  }

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    guard let plan = plan(for: context) else { return nil }
    // The reduced form has its own duration, unless the context sets one.
    let isReduced =
      document.reduced != nil && context.hints[TransitionContext.reduceMotionKey] == .bool(true)
    let duration = isReduced && context.hints["duration"] == nil ? plan.duration : duration
    var builder = try TimelineBuilder(
      document: document, plan: plan, context: context, duration: duration)
    guard builder.accepts else { return nil }
    return try builder.build()
  }
}

/// Builds one timeline: the rules of one plan applied to one context.
private struct TimelineBuilder {
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
      for field in LayerFrameField.allCases {
        setGlobal(field.name(of: reference), field.value(of: layer.frame))
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
  private mutating func setGlobal(_ name: String, _ value: Double) {
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

  private mutating func setParameters() throws(EngineError) {
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
      layer = LayerFrameField.layerNames.map { slots.slot(of: $0) }
      other = LayerFrameField.otherNames.map { slots.slot(of: $0) }
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
      duration: duration, curve: plan.curve, layers: layers, gesture: try gesture())
    timeline.warnings = warnings
    return timeline
  }

  /// The plan's first gesture whose `when` holds, with the ids of the layers it holds in paint
  /// order; nil without one.
  private func gesture() throws(EngineError) -> TimelineGesture? {
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
      hold: heldIDs, axis: plan.axis, range: range, direction: plan.direction)
  }

  private mutating func apply(_ rule: Rule, index: Int) throws(EngineError) {
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
      let frame = item.layer.initial.frame
      for (field, slot) in zip(LayerFrameField.allCases, layerSlots.layer) {
        names.set(slot, field.value(of: frame))
      }
      if let other = counterpart(of: item) {
        for (field, slot) in zip(LayerFrameField.allCases, layerSlots.other) {
          names.set(slot, field.value(of: other.frame))
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
  private mutating func nextZ() -> Double {
    defer { drawn += 1 }
    return Double(drawn)
  }

  private func rect(of frame: Rule.AddedFrame, _ rule: Rule) throws(EngineError) -> Rect {
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

  private func reference(of reference: LayerReference) -> ContextLayer? {
    switch reference {
    case .selected: selectedLayer
    case .match: matchLayer
    case .layer: nil
    }
  }

  /// The other layer of a pair: the match for the selected layer and the selected layer for
  /// the match; else the layer of the other screen with the same `shared` name.
  private func counterpart(of item: Item) -> ContextLayer? {
    guard let layer = item.contextLayer else { return nil }
    if layer.id == context.selected, let match = matchLayer { return match }
    if layer.id == context.match, let selected = selectedLayer { return selected }
    return context.partner(of: layer)
  }

  private func resolve(_ choices: [ColorChoice], layer: ContextLayer?) -> Color? {
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

  // MARK: Stagger

  struct StaggerValues {
    var stagger: Double
    var distance: Double
    var farthest: Double
  }

  /// The stagger values of each of `items`, by position: nil for a layer the rule's stagger
  /// does not spread over (every layer of a rule without one).
  private func stagger(_ rule: Rule, _ items: [Item]) throws(EngineError) -> [StaggerValues?] {
    guard let stagger = rule.stagger else { return Array(repeating: nil, count: items.count) }
    let among = items.indices.filter {
      matches(stagger.among, items[$0])
    }
    var measures: [Double?] = Array(repeating: nil, count: items.count)
    switch stagger.measure {
    case .index:
      for (rank, index) in among.enumerated() { measures[index] = Double(rank) }
    case .distance:
      let origin: Point
      switch stagger.origin {
      case .container:
        origin = Point(x: context.container.width / 2, y: context.container.height / 2)
      case .layer(let reference):
        guard let layer = self.reference(of: reference) else {
          throw EngineError(
            .invalidValue,
            "\(document.name).json \(rule.pointer)/stagger: the context has no \(reference.rawValue) layer"
          )
        }
        origin = layer.frame.center
      case .point(let x, let y):
        origin = Point(
          x: try evaluate(x, "\(rule.pointer)/stagger/from/0", ExpressionNames(globals)),
          y: try evaluate(y, "\(rule.pointer)/stagger/from/1", ExpressionNames(globals)))
      }
      for index in among {
        let center = items[index].layer.initial.frame.center
        let dx = center.x - origin.x
        let dy = center.y - origin.y
        measures[index] = (dx * dx + dy * dy).squareRoot()
      }
    }
    let farthest = measures.lazy.compactMap { $0 }.max() ?? 0
    return measures.map { measure in
      measure.map {
        StaggerValues(
          stagger: farthest > 0 ? min($0 / farthest, 1) : 0, distance: $0, farthest: farthest)
      }
    }
  }

  // MARK: Tracks

  private func value(
    _ value: ValueExpression, property: LayerProperty, item: Item, _ names: ExpressionNames,
    _ pointer: @autoclosure () -> String
  ) throws(EngineError) -> PropertyValue {
    switch value {
    case .bool(let flag): return .bool(flag)
    case .color(let choices): return .color(resolve(choices, layer: item.contextLayer))
    case .numbers(let expressions, let kind):
      /// The value of the expression at `index`, evaluated in the order the kind reads them.
      func number(_ index: Int) throws(EngineError) -> Double {
        try evaluate(
          expressions[index], expressions.count == 1 ? pointer() : "\(pointer())/\(index)", names)
      }
      switch kind {
      case .point: return .point(Point(x: try number(0), y: try number(1)))
      case .size: return .size(Size(width: try number(0), height: try number(1)))
      case .rect:
        return .rect(
          Rect(x: try number(0), y: try number(1), width: try number(2), height: try number(3)))
      case .transform:
        var numbers: [Double] = []
        numbers.reserveCapacity(expressions.count)
        for index in expressions.indices { numbers.append(try number(index)) }
        return .transform(try Transform3D(elements: numbers))
      default: return .number(try number(0))
      }
    }
  }

  private func play(
    _ track: TrackRule, on layer: inout TimelineLayer, item: Item, _ names: ExpressionNames
  ) throws(EngineError) {
    // The messages' pointers capture the track's pointer alone, not a copy of the track.
    let trackPointer = track.pointer
    let initial: PropertyValue
    if let value = track.initial {
      initial = try self.value(
        value, property: track.property, item: item, names, "\(trackPointer)/from")
    } else {
      initial = layer.initial.value(of: track.property)
    }
    let mirrored = plan.mirrored && track.mirrors
    // The keyframes as written; for a mirrored track, where each ends as well.
    var keyframes: [Keyframe] = []
    keyframes.reserveCapacity(track.keyframes.count)
    var ends: [Double] = []
    for (index, keyframe) in track.keyframes.enumerated() {
      var pointer: String { "\(trackPointer)/keyframes/\(index)" }
      let start = try evaluate(keyframe.start, "\(pointer)/start", names)
      let end: Double
      let duration: Double
      if let endExpression = keyframe.end {
        end = try evaluate(endExpression, "\(pointer)/end", names)
        duration = end - start
      } else {
        duration = try evaluate(keyframe.duration ?? .number(0), "\(pointer)/duration", names)
        end = start + duration
      }
      keyframes.append(
        Keyframe(
          start: start, duration: duration,
          value: try value(
            keyframe.value, property: track.property, item: item, names, "\(pointer)/value"),
          curve: keyframe.curve))
      if mirrored { ends.append(end) }
    }
    guard mirrored else {
      layer.initial.set(track.property, to: initial)
      layer.tracks.append(PropertyTrack(track.property, mode: track.mode, keyframes: keyframes))
      return
    }
    // Mirrored in time: each keyframe runs over [1 − end, 1 − start] towards the value before
    // it, and the track starts at the last value.
    var mirroredKeyframes: [Keyframe] = []
    mirroredKeyframes.reserveCapacity(keyframes.count)
    for index in keyframes.indices.reversed() {
      let keyframe = keyframes[index]
      let window = keyframeWindow(
        keyframe.relativeStart, ends[index], keyframe.relativeDuration,
        isWindow: track.keyframes[index].end != nil)
      mirroredKeyframes.append(
        Keyframe(
          start: window.start, duration: window.duration,
          value: index == 0 ? initial : keyframes[index - 1].value, curve: keyframe.curve.mirrored))
    }
    layer.initial.set(track.property, to: keyframes.last?.value ?? initial)
    layer.tracks.append(
      PropertyTrack(track.property, mode: track.mode, keyframes: mirroredKeyframes))
  }

  /// The mirror of a keyframe's timing: a window [s, e] becomes [1 − e, 1 − s] (its duration
  /// (1 − s) − (1 − e), as `PlayDirection` computes it); `start` and `duration` become
  /// 1 − (start + duration) and the same duration.
  private func keyframeWindow(_ start: Double, _ end: Double, _ duration: Double, isWindow: Bool)
    -> (start: Double, duration: Double)
  {
    isWindow ? (1 - end, (1 - start) - (1 - end)) : (1 - end, duration)
  }
}

extension TimingCurve {
  /// The curve played backwards in time: a cubic Bézier turned about (0.5, 0.5), steps with
  /// their jump at the other end; linear and springs as they are (a spring has no exact mirror).
  var mirrored: TimingCurve {
    switch self {
    case .linear, .spring: self
    case .cubicBezier(let x1, let y1, let x2, let y2):
      .cubicBezier(x1: 1 - x2, y1: 1 - y2, x2: 1 - x1, y2: 1 - y1)
    case .steps(let count, let position):
      .steps(count: count, position: position == .start ? .end : .start)
    }
  }
}

extension LayerSelector {
  /// Whether the selector, or one it nests, selects by role `cell`.
  var asksForCells: Bool {
    role == ContextLayer.cellRole || not.contains(where: \.asksForCells)
  }
}
