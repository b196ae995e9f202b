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
  public var clipProblem: (index: Int, message: String)? {
    var index: [String: Int] = [:]
    for (position, layer) in layers.enumerated() { index[layer.id] = position }
    for (position, layer) in layers.enumerated() {
      guard let first = layer.clipTo else { continue }
      guard index[first] != nil else {
        return (position, "\"\(first)\" is no layer of the screen")
      }
      var chain = [layer.id]
      var next: String? = first
      while let id = next, let at = index[id] {
        if chain.contains(id) {
          return (
            position,
            "forms a loop: " + (chain + [id]).map { "\"\($0)\"" }.joined(separator: " → ")
          )
        }
        chain.append(id)
        next = layers[at].clipTo
      }
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
