import TransitionJSON

/// What a transition does (UIKit's navigation and modal operations).
public enum TransitionOperation: String, CaseIterable, Hashable, Sendable {
  case push, pop, present, dismiss
}

/// One layer of a screen as the app has it.
public struct ContextLayer: Equatable, Sendable {
  public var id: String
  /// `[x, y, w, h]` in container coordinates.
  public var frame: Rect
  public var background: Color?
  /// The radius of the layer's rounded corners, in points.
  public var cornerRadius: Double = 0
  /// Whether the layer's content is clipped to its rounded box.
  public var clips = false
  public var border = LayerBorder.none
  public var shadow = LayerShadow.none
  /// The id of the layer of the same screen whose rounded box clips this one.
  public var clipTo: String?
  /// Opaque JSON passed through to renderers (an image name, a text…).
  public var content: JSONValue?
  /// What the layer is to the app, when the context says: `"cell"` marks a collection cell
  /// (`ContextLayer.cellRole`); other values are reserved and passed through unchanged.
  public var role: String?
  /// A name that pairs the layer with the layer of the other screen that has the same one (a
  /// shared element: an avatar that flies from a list row into a detail screen); 1 to
  /// ``maximumSharedLength`` characters, unique on its screen.
  public var shared: String?

  /// The longest `shared` name, in characters.
  public static let maximumSharedLength = 64

  /// The `role` value that marks a collection cell.
  public static let cellRole = "cell"

  public init(
    id: String, frame: Rect, background: Color? = nil, content: JSONValue? = nil,
    role: String? = nil, shared: String? = nil
  ) {
    self.id = id
    self.frame = frame
    self.background = background
    self.content = content
    self.role = role
    self.shared = shared
  }

  /// Whether the layer is a collection cell (`role` is `"cell"`).
  public var isCell: Bool { role == Self.cellRole }
}

/// One screen (view controller's view) of a transition: a background and its layers.
public struct Screen: Equatable, Sendable {
  public var background: Color?
  public var layers: [ContextLayer]

  public init(background: Color? = nil, layers: [ContextLayer] = []) {
    self.background = background
    self.layers = layers
  }

  /// The layer whose `shared` name is `name`, if the screen has it.
  public func layer(shared name: String?) -> ContextLayer? {
    guard let name else { return nil }
    return layers.first { $0.shared == name }
  }

  /// The problem with the screen's `shared` names, if any: the index of the first layer whose
  /// name is empty, longer than `ContextLayer.maximumSharedLength` characters or used by an
  /// earlier layer of the screen, and what is wrong.
  public var sharedNameProblem: (index: Int, message: String)? {
    var seen = Set<String>()
    for (index, layer) in layers.enumerated() {
      guard let name = layer.shared else { continue }
      guard !name.isEmpty, name.count <= ContextLayer.maximumSharedLength else {
        return (index, "must be 1 to \(ContextLayer.maximumSharedLength) characters")
      }
      guard seen.insert(name).inserted else {
        return (index, "\"\(name)\" is used by another layer of the screen")
      }
    }
    return nil
  }

  /// The layer named `id`, if the screen has it.
  public func layer(_ id: String?) -> ContextLayer? {
    guard let id else { return nil }
    return layers.first { $0.id == id }
  }
}

/// What UIKit calls the transition context: the operation, the container and both screens.
///
/// Layer ids are unique across both screens. `selected` (the tapped layer) names a layer of
/// either screen; `match` names the layer of the other screen that shows the selected item (a
/// detail screen's picture). Other top-level members are kept in `hints` for animators that
/// want them.
public struct TransitionContext: Equatable, Sendable {
  public var operation: TransitionOperation
  /// The container's `[w, h]`.
  public var container: Size
  public var from: Screen
  public var to: Screen
  public var selected: String?
  public var match: String?
  public var hints: [String: JSONValue]

  public init(
    operation: TransitionOperation, container: Size, from: Screen, to: Screen,
    selected: String? = nil, match: String? = nil, hints: [String: JSONValue] = [:]
  ) {
    self.operation = operation
    self.container = container
    self.from = from
    self.to = to
    self.selected = selected
    self.match = match
    self.hints = hints
  }

  /// The member (kept in `hints`) by which a context asks for reduced motion: `true` or
  /// `false` (docs/protocol.md, "begin"); a data animator then plays its `reduced` form.
  public static let reduceMotionKey = "reduceMotion"

  /// The layer of the other screen with the same `shared` name as `layer` (its partner in a
  /// shared-element pair), if there is one.
  public func partner(of layer: ContextLayer) -> ContextLayer? {
    guard let name = layer.shared else { return nil }
    if from.layer(layer.id) != nil { return to.layer(shared: name) }
    return from.layer(shared: name)
  }

  /// The layer named `selected`, looked up in the `from` screen, then in the `to` screen.
  public var selectedLayer: ContextLayer? {
    from.layer(selected) ?? to.layer(selected)
  }
}

extension TransitionContext {
  private static let knownKeys: Set<String> = [
    "operation", "container", "from", "to", "selected", "match",
  ]

  /// Decodes and validates a context.
  /// - Parameter path: the name of the context in messages (`context` in a `begin` request;
  ///   empty for a context that is a document of its own, whose paths then start at its keys).
  /// - Throws: `EngineError` naming the field: unknown operation, missing or non-finite numbers,
  ///   negative sizes, numbers outside `ContextBounds`, a `duration` member outside
  ///   (0, 1e9], duplicate layer ids, a `selected` or `match` that names no layer, a
  ///   `match` on the same screen as `selected`, an empty `role`.
  public init(json: JSONValue, path: String = "context") throws(EngineError) {
    let root = JSONField(json, path: path)
    // How member paths start: `context.` for a request's context, nothing for a root.
    let prefix = path.isEmpty ? "" : "\(path)."
    let operationField = try root.required("operation")
    let name = try operationField.string()
    guard let operation = TransitionOperation(rawValue: name) else {
      throw EngineError(
        .invalidValue,
        "\(operationField.path) must be one of \(TransitionOperation.listing), got \"\(name)\"")
    }
    let containerField = try root.required("container")
    let container = try containerField.size()
    try ContextBounds.check(container, containerField.path)
    let from = try Self.screen(try root.required("from"))
    let to = try Self.screen(try root.required("to"))
    var seen = Set<String>()
    for (screenName, screen) in [("from", from), ("to", to)] {
      for (index, layer) in screen.layers.enumerated() where !seen.insert(layer.id).inserted {
        throw EngineError(
          .duplicate,
          "\(prefix)\(screenName).layers[\(index)].id \"\(layer.id)\" is used by another layer")
      }
    }
    let selected = try root.optional("selected")?.string()
    if let selected, !seen.contains(selected) {
      throw EngineError(.invalidValue, "\(prefix)selected \"\(selected)\" names no layer")
    }
    let match = try root.optional("match")?.string()
    if let match {
      guard seen.contains(match) else {
        throw EngineError(.invalidValue, "\(prefix)match \"\(match)\" names no layer")
      }
      let sameScreen = [from, to].contains { $0.layer(match) != nil && $0.layer(selected) != nil }
      guard !sameScreen else {
        throw EngineError(
          .invalidValue,
          "\(prefix)match \"\(match)\" must name a layer of the screen that selected is not on")
      }
    }
    var hints = json.objectValue ?? [:]
    for key in Self.knownKeys { hints[key] = nil }
    if let durationField = try root.optional("duration") {
      let duration = try durationField.number()
      guard duration > ContextBounds.duration.lowerBound,
        duration <= ContextBounds.duration.upperBound
      else {
        throw EngineError(
          .outOfRange,
          "\(durationField.path) must be in (0, \(JSONValue.format(ContextBounds.duration.upperBound))]"
            + " seconds, got \(JSONValue.format(duration))")
      }
    }
    self.init(
      operation: operation, container: container, from: from, to: to, selected: selected,
      match: match, hints: hints)
  }

  /// Decodes and validates a context from UTF-8 JSON bytes: what `init(json:path:)` decodes
  /// from the parsed text, read straight from the text (``ContextReader``) when it is valid; an
  /// invalid text is decoded again by `init(json:path:)`, so that its error names the field.
  /// - Throws: `EngineError`: `invalid_value` with the parser's message for text that is not
  ///   JSON, otherwise what `init(json:path:)` throws.
  public init(jsonBytes: some Collection<UInt8>, path: String = "context") throws(EngineError) {
    if let context = jsonBytes.withContiguousBytes(ContextReader.context) {
      self = context
      return
    }
    try self.init(referenceDecodingOf: Array(jsonBytes), path: path)
  }

  /// Decodes a context from UTF-8 JSON bytes by parsing them into a `JSONValue` and reading it
  /// with `init(json:path:)`: the reference that ``ContextReader`` agrees with.
  init(referenceDecodingOf bytes: [UInt8], path: String = "context") throws(EngineError) {
    let json: JSONValue
    do { json = try JSONValue(parsing: bytes) } catch { throw EngineError(error) }
    try self.init(json: json, path: path)
  }

  /// The members a screen and a layer of a context may have (made once: a context is read on
  /// every `begin`).
  private static let screenMembers: Set<String> = ["background", "layers"]
  private static let layerMembers = Set([
    "id", "frame", "background", "content", "role", "shared",
  ]).union(ContextLayer.appearanceMembers)

  private static func screen(_ field: JSONField) throws(EngineError) -> Screen {
    try field.allowOnly(screenMembers)
    var layers: [ContextLayer] = []
    for element in try field.optional("layers")?.elements() ?? [] {
      try element.allowOnly(layerMembers)
      let id = try element.required("id").string()
      guard !id.isEmpty else { throw EngineError(.empty, "\(element.path).id must not be empty") }
      let frameField = try element.required("frame")
      let frame = try frameField.rect()
      try ContextBounds.check(frame, frameField.path)
      let role = try element.optional("role")?.string()
      if role?.isEmpty == true {
        throw EngineError(.empty, "\(element.path).role must not be empty")
      }
      let shared = try element.optional("shared")?.string()
      var layer = ContextLayer(
        id: id, frame: frame,
        background: try element.optional("background")?.color(),
        content: try element.optional("content")?.value, role: role, shared: shared)
      for key in ContextLayer.appearanceMembers {
        if let member = try element.optional(key) { try layer.setAppearance(key, from: member) }
      }
      layers.append(layer)
    }
    let screen = Screen(background: try field.optional("background")?.color(), layers: layers)
    if let problem = screen.sharedNameProblem {
      throw EngineError(
        .invalidValue, "\(field.path).layers[\(problem.index)].shared \(problem.message)")
    }
    if let problem = screen.clipProblem {
      throw EngineError(
        .invalidValue, "\(field.path).layers[\(problem.index)].clipTo \(problem.message)")
    }
    return screen
  }

  /// The context as JSON, in the form `init(json:)` reads.
  public var json: JSONValue {
    func screen(_ screen: Screen) -> JSONValue {
      var members: [String: JSONValue] = [
        "layers": .array(
          screen.layers.map { layer in
            var members: [String: JSONValue] = [
              "id": .string(layer.id), "frame": .rect(layer.frame),
            ]
            if let background = layer.background { members["background"] = .string(background.hex) }
            members.merge(layer.appearanceJSON) { _, appearance in appearance }
            if let content = layer.content { members["content"] = content }
            if let role = layer.role { members["role"] = .string(role) }
            if let shared = layer.shared { members["shared"] = .string(shared) }
            return .object(members)
          })
      ]
      if let background = screen.background { members["background"] = .string(background.hex) }
      return .object(members)
    }
    var members = hints
    members["operation"] = .string(operation.rawValue)
    members["container"] = .array([.number(container.width), .number(container.height)])
    members["from"] = screen(from)
    members["to"] = screen(to)
    if let selected { members["selected"] = .string(selected) }
    if let match { members["match"] = .string(match) }
    return .object(members)
  }
}

extension JSONValue {
  /// `[x, y, w, h]`.
  static func rect(_ rect: Rect) -> JSONValue {
    .array([.number(rect.x), .number(rect.y), .number(rect.width), .number(rect.height)])
  }
}
