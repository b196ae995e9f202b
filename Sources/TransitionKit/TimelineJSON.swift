import TransitionJSON

/// The timeline's JSON schema: what crosses the plugin boundary (docs/plugins.md).
///
/// ```json
/// {"duration": 1.0, "curve": "easeOut",
///  "layers": [{"id": "cover", "frame": [20, 100, 170, 170], "anchor": [0, 0.5], "z": 10,
///              "perspective": -0.002,
///              "tracks": [{"property": "rotation.y", "mode": "linear",
///                          "keyframes": [{"start": 0, "duration": 0.5, "value": -3.14159,
///                                         "curve": "linear"}]}]}],
///  "gesture": {"hold": ["cover"], "axis": "y", "range": 600, "direction": 1}}
/// ```
/// `gesture` is optional (``TimelineGesture``); so is `handover`, seconds (``handover``).
/// A layer's initial values use the property names of `LayerProperty` as keys (`scale` sets both
/// axes); `content` is passed through; `frame` is required, everything else has its default.
extension Timeline {
  /// Decodes and validates a timeline.
  /// - Throws: `EngineError` naming the field of the first problem.
  public init(json: JSONValue) throws(EngineError) {
    let root = JSONField(json, path: "")
    try root.allowOnly(["duration", "curve", "layers", "gesture", "handover", "warnings"])
    let curve = try root.optional("curve").map { field throws(EngineError) in
      try TimingCurve(json: field)
    }
    var layers: [TimelineLayer] = []
    for element in try root.required("layers").elements() {
      layers.append(try Self.layer(element))
    }
    let gesture = try root.optional("gesture").map { field throws(EngineError) in
      try TimelineGesture(json: field)
    }
    try self.init(
      duration: try root.required("duration").number(), curve: curve ?? .linear, layers: layers,
      gesture: gesture, handover: try root.optional("handover")?.number())
    for element in try root.optional("warnings")?.elements().prefix(Self.maximumWarnings) ?? [] {
      warnings.append(try element.string())
    }
  }

  /// Decodes a timeline from UTF-8 JSON bytes: parsed into a `JSONValue`, then read by
  /// `init(json:)`. The timeline's one JSON reader: a compiled plugin's timeline (a C
  /// plugin's; the SDK's come in the binary form) and the documents of the tests and tools.
  /// - Throws: `EngineError`: `invalid_value` with the parser's message for text that is not
  ///   JSON, otherwise what `init(json:)` throws.
  public init(jsonBytes: some Collection<UInt8>) throws(EngineError) {
    let json: JSONValue
    do { json = try JSONValue(parsing: jsonBytes) } catch { throw EngineError(error) }
    try self.init(json: json)
  }

  private static let layerKeys: Set<String> = Set(LayerProperty.allCases.map(\.rawValue))
    .union(["id", "content", "tracks"])

  private static func layer(_ field: JSONField) throws(EngineError) -> TimelineLayer {
    try field.allowOnly(layerKeys)
    var initial = LayerAttributes(frame: try field.required("frame").rect())
    for property in LayerProperty.allCases where property != .frame {
      if let value = try field.optional(property.rawValue) {
        initial.set(property, to: try PropertyValue(json: value, kind: property.kind))
      }
    }
    var tracks: [PropertyTrack] = []
    for element in try field.optional("tracks")?.elements() ?? [] {
      tracks.append(try track(element))
    }
    return TimelineLayer(
      id: try field.required("id").string(), initial: initial,
      content: try field.optional("content")?.value, tracks: tracks)
  }

  private static func track(_ field: JSONField) throws(EngineError) -> PropertyTrack {
    try field.allowOnly(["property", "mode", "keyframes"])
    let propertyField = try field.required("property")
    let name = try propertyField.string()
    guard let property = LayerProperty(rawValue: name) else {
      throw EngineError(.invalidValue, "\(propertyField.path) \"\(name)\" is not a layer property")
    }
    var mode = CalculationMode.linear
    if let modeField = try field.optional("mode") {
      let modeName = try modeField.string()
      guard let parsed = CalculationMode(rawValue: modeName) else {
        throw EngineError(
          .invalidValue,
          "\(modeField.path) must be one of linear, discrete, paced, cubic, got \"\(modeName)\"")
      }
      mode = parsed
    }
    var keyframes: [Keyframe] = []
    for element in try field.required("keyframes").elements() {
      try element.allowOnly(["start", "duration", "value", "curve"])
      let curve = try element.optional("curve").map { field throws(EngineError) in
        try TimingCurve(json: field)
      }
      keyframes.append(
        Keyframe(
          start: try element.optional("start")?.number() ?? 0,
          duration: try element.optional("duration")?.number() ?? 1,
          value: try PropertyValue(json: try element.requiredOrNull("value"), kind: property.kind),
          curve: curve ?? .linear))
    }
    return PropertyTrack(property, mode: mode, keyframes: keyframes)
  }

  /// The timeline as compact JSON text: the bytes of `json.serialized` (members sorted), what
  /// `make_timeline` returns for `TimelineEncoding.json`.
  public var jsonText: [UInt8] {
    var sink = ByteSink(capacity: 1024 + layers.count * 256)
    sink.appendJSON(json)
    return sink.bytes
  }

  /// The timeline as JSON, in the form `init(json:)` reads; defaults are left out.
  public var json: JSONValue {
    var root: [String: JSONValue] = [
      "duration": .number(duration), "layers": .array(layers.map(Self.json)),
    ]
    if curve != .linear { root["curve"] = curve.json }
    if let gesture { root["gesture"] = gesture.json }
    if let handover { root["handover"] = .number(handover) }
    if !warnings.isEmpty { root["warnings"] = .array(warnings.map(JSONValue.string)) }
    return .object(root)
  }

  private static func json(_ layer: TimelineLayer) -> JSONValue {
    var members: [String: JSONValue] = ["id": .string(layer.id)]
    let defaults = LayerAttributes(frame: layer.initial.frame)
    for property in LayerProperty.allCases where property != .scale {
      let value = layer.initial.value(of: property)
      if property == .frame || value != defaults.value(of: property) {
        if property == .position || property == .size { continue }
        members[property.rawValue] = value.json
      }
    }
    if let content = layer.content { members["content"] = content }
    if !layer.tracks.isEmpty {
      members["tracks"] = .array(
        layer.tracks.map { track in
          var members: [String: JSONValue] = [
            "property": .string(track.property.rawValue),
            "keyframes": .array(
              track.keyframes.map { keyframe in
                var members: [String: JSONValue] = [
                  "start": .number(keyframe.relativeStart),
                  "duration": .number(keyframe.relativeDuration), "value": keyframe.value.json,
                ]
                if keyframe.curve != .linear { members["curve"] = keyframe.curve.json }
                return .object(members)
              }),
          ]
          if track.mode != .linear { members["mode"] = .string(track.mode.rawValue) }
          return .object(members)
        })
    }
    return .object(members)
  }
}

extension PropertyValue {
  /// Decodes a value of `kind`: a number, `[x, y]`, `[w, h]`, `[x, y, w, h]`, `"#rrggbbaa"` (or
  /// null for no colour), a boolean, 16 numbers, or a layer's id (or null for none).
  public init(json field: JSONField, kind: Kind) throws(EngineError) {
    switch kind {
    case .number: self = .number(try field.number())
    case .point: self = .point(try field.point())
    case .size: self = .size(try field.size())
    case .rect: self = .rect(try field.rect())
    case .color: self = .color(field.value == .null ? nil : try field.color())
    case .bool: self = .bool(try field.bool())
    case .transform: self = .transform(try field.transform())
    case .layer: self = .layer(field.value == .null ? nil : try field.string())
    }
  }

  /// The value as JSON.
  public var json: JSONValue {
    switch self {
    case .number(let value): .number(value)
    case .point(let point): .array([.number(point.x), .number(point.y)])
    case .size(let size): .array([.number(size.width), .number(size.height)])
    case .rect(let rect): .rect(rect)
    case .color(let color): color.map { .string($0.hex) } ?? .null
    case .bool(let flag): .bool(flag)
    case .transform(let matrix): .array(matrix.elements.map(JSONValue.number))
    case .layer(let id): id.map(JSONValue.string) ?? .null
    }
  }
}

extension TimingCurve {
  /// Decodes a curve: a preset name (`"linear"`, `"easeIn"`, `"easeOut"`, `"easeInEaseOut"`,
  /// `"default"`), `{"bezier": [x1, y1, x2, y2]}`, `{"steps": n, "position": "start"|"end"}`,
  /// `{"spring": {"mass", "stiffness", "damping", "velocity"}}` or
  /// `{"spring": {"duration", "bounce", "velocity"}}`.
  public init(json field: JSONField) throws(EngineError) {
    if case .string(let name) = field.value {
      do {
        self = try TimingCurve(named: name)
      } catch {
        throw EngineError(error.code, "\(field.path): \(error.message)")
      }
      return
    }
    do throws(EngineError) {
      if let bezier = try field.optional("bezier") {
        let n = try bezier.numbers(count: 4)
        self = try TimingCurve.cubicBezier(x1: n[0], y1: n[1], x2: n[2], y2: n[3]).validated()
      } else if let steps = try field.optional("steps") {
        let count = try steps.number()
        let positionName = try field.optional("position")?.string() ?? "end"
        guard let position = StepPosition(rawValue: positionName) else {
          throw EngineError(.invalidValue, "position must be start or end")
        }
        guard count >= 1, count <= 10_000, count == count.rounded() else {
          throw EngineError(.outOfRange, "\(steps.path) must be a whole number from 1 to 10000")
        }
        self = .steps(count: Int(count), position: position)
      } else if let spring = try field.optional("spring") {
        let velocity = try spring.optional("velocity")?.number() ?? 0
        if let duration = try spring.optional("duration") {
          self = .spring(
            try Spring(
              duration: try duration.number(),
              bounce: try spring.optional("bounce")?.number() ?? 0, initialVelocity: velocity))
        } else {
          self = .spring(
            try Spring(
              mass: try spring.optional("mass")?.number() ?? 1,
              stiffness: try spring.required("stiffness").number(),
              damping: try spring.required("damping").number(), initialVelocity: velocity))
        }
      } else {
        throw EngineError(
          .invalidValue,
          "must be a curve name or an object with bezier, steps or spring")
      }
    } catch {
      throw error.message.hasPrefix(field.path)
        ? error : EngineError(error.code, "\(field.path): \(error.message)")
    }
  }

  /// The curve as JSON, in the form `init(json:)` reads.
  public var json: JSONValue {
    if let name { return .string(name) }
    switch self {
    case .linear: return .string("linear")
    case .cubicBezier(let x1, let y1, let x2, let y2):
      return .object(["bezier": .array([.number(x1), .number(y1), .number(x2), .number(y2)])])
    case .steps(let count, let position):
      return .object(["steps": .number(Double(count)), "position": .string(position.rawValue)])
    case .spring(let spring):
      return .object([
        "spring": .object([
          "mass": .number(spring.mass), "stiffness": .number(spring.stiffness),
          "damping": .number(spring.damping), "velocity": .number(spring.initialVelocity),
        ])
      ])
    }
  }
}
