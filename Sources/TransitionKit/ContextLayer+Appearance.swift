import TransitionJSON

/// A context layer's appearance members (`cornerRadius`, `clips`, `border`, `shadow`,
/// `clipTo`), in the form a frame writes them: the app's own look, which animators start from.
extension ContextLayer {
  /// The members of a context layer that set its appearance.
  static let appearanceMembers: Set<String> = [
    "cornerRadius", "clips", "border", "shadow", "clipTo",
  ]

  /// Sets the appearance member `key` from `field`.
  /// - Throws: `EngineError` naming the member: a negative or non-finite length, a bad colour,
  ///   a member of the wrong type.
  mutating func setAppearance(_ key: String, from field: JSONField) throws(EngineError) {
    switch key {
    case "cornerRadius": cornerRadius = try field.length()
    case "clips": clips = try field.bool()
    case "border": border = try LayerBorder(json: field)
    case "shadow": shadow = try LayerShadow(json: field)
    case "clipTo":
      clipTo = field.value == .null ? nil : try field.string()
    default: break
    }
  }

  /// The appearance members that are not at their default, as JSON.
  var appearanceJSON: [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    if cornerRadius != 0 { members["cornerRadius"] = .number(cornerRadius) }
    if clips { members["clips"] = .bool(true) }
    if border != .none { members["border"] = border.json }
    if shadow != .none { members["shadow"] = shadow.json }
    if let clipTo { members["clipTo"] = .string(clipTo) }
    return members
  }
}

extension Screen {
  /// The first `clipTo` of the screen that names no layer of it or closes a loop (a layer that
  /// clips itself, or a chain back to one), with its layer's index; nil when there is none.
  ///
  /// Linear in the layers, however long the chains: each layer's chain is followed once, and a
  /// chain that meets one already followed takes that one's answer. A context is checked
  /// before `limits.maxLayersPerContext` is (a client's 1,400-layer chain is refused by that
  /// limit at once).
  public var clipProblem: (index: Int, message: String)? {
    guard layers.contains(where: { $0.clipTo != nil }) else { return nil }
    var position: [String: Int] = [:]
    position.reserveCapacity(layers.count)
    for (at, layer) in layers.enumerated() { position[layer.id] = at }
    // Each layer's next layer along its chain: -1 none (no clipTo, or one naming no layer).
    let next = layers.map { layer in layer.clipTo.flatMap { position[$0] } ?? -1 }
    // 0 not followed yet, 1 on the path being followed, 2 ends without a loop, 3 reaches one.
    var state = [UInt8](repeating: 0, count: layers.count)
    var path: [Int] = []
    for start in layers.indices where state[start] == 0 {
      var at = start
      while at >= 0, state[at] == 0 {
        state[at] = 1
        path.append(at)
        at = next[at]
      }
      let outcome: UInt8 = at >= 0 && state[at] != 2 ? 3 : 2
      for layer in path { state[layer] = outcome }
      path.removeAll(keepingCapacity: true)
    }
    for (at, layer) in layers.enumerated() {
      if let first = layer.clipTo, position[first] == nil {
        return (at, "\"\(first)\" is no layer of the screen")
      }
      guard state[at] == 3 else { continue }
      // The chain from here up to its first layer met twice.
      var chain = [layer.id]
      var met: Set<Int> = [at]
      var step = next[at]
      while met.insert(step).inserted {
        chain.append(layers[step].id)
        step = next[step]
      }
      chain.append(layers[step].id)
      return (at, "forms a loop: " + ClipChainText.describe(chain) { $0 })
    }
    return nil
  }
}

extension LayerBorder {
  /// Reads `{"width": W, "color": "#rrggbbaa"}`; W is a length (not negative).
  public init(json field: JSONField) throws(EngineError) {
    try field.allowOnly(["width", "color"])
    self.init(
      width: try field.required("width").length(), color: try field.required("color").color())
    if width == 0 { self = .none }
  }

  /// `{"width": W, "color": "#rrggbbaa"}`.
  public var json: JSONValue {
    .object(["width": .number(width), "color": .string(color.hex)])
  }
}

extension LayerShadow {
  /// Reads `{"color": "#rrggbbaa", "blur": B, "offset": [dx, dy]}`; B is a length (not
  /// negative), 0 when absent, and the offset `[0, 0]` when absent.
  public init(json field: JSONField) throws(EngineError) {
    try field.allowOnly(["color", "blur", "offset"])
    self.init(
      evaluatedColor: try field.required("color").color(),
      blur: try field.optional("blur")?.length() ?? 0,
      offset: try field.optional("offset")?.point() ?? Point(x: 0, y: 0))
  }

  /// `{"color": "#rrggbbaa", "blur": B, "offset": [dx, dy]}`.
  public var json: JSONValue {
    .object([
      "color": .string(color.hex), "blur": .number(blur),
      "offset": .array([.number(offset.x), .number(offset.y)]),
    ])
  }
}
