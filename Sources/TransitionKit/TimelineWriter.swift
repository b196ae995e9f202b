import TransitionJSON

/// The timeline codec's writer: the JSON text of a timeline written straight into bytes, the
/// value `timeline.json` is (defaults left out), without building the `JSONValue` tree, for
/// the timelines the plugin host returns on every `begin`.
extension Timeline {
  /// The timeline as compact JSON text, the value ``json`` is: members sorted as
  /// `json.serialized` sorts them, but for a track's, whose `property` comes first (and `mode`)
  /// so that ``TimelineReader`` knows the kind of the keyframes' values when it reaches them
  /// and reads them once.
  public var jsonText: [UInt8] {
    var sink = ByteSink(capacity: 1024 + layers.count * 256)
    sink.append(UInt8(ascii: "{"))
    if curve != .linear {
      sink.append("\"curve\":")
      sink.appendJSON(curve.json)
      sink.append(UInt8(ascii: ","))
    }
    sink.append("\"duration\":")
    sink.appendNumber(duration)
    if let gesture {
      sink.append(",\"gesture\":")
      sink.appendJSON(gesture.json)
    }
    if let handover {
      sink.append(",\"handover\":")
      sink.appendNumber(handover)
    }
    sink.append(",\"layers\":[")
    // By index, so that no layer is copied out of the array.
    for index in layers.indices {
      if index > 0 { sink.append(UInt8(ascii: ",")) }
      Self.write(layers[index], into: &sink)
    }
    sink.append(UInt8(ascii: "]"))
    if !warnings.isEmpty {
      sink.append(",\"warnings\":")
      sink.appendJSON(.array(warnings.map(JSONValue.string)))
    }
    sink.append(UInt8(ascii: "}"))
    return sink.bytes
  }

  /// A member of a layer's JSON object.
  private enum LayerMember {
    case property(LayerProperty)
    case id, content, tracks

    var name: String {
      switch self {
      case .property(let property): property.rawValue
      case .id: "id"
      case .content: "content"
      case .tracks: "tracks"
      }
    }
  }

  /// A layer's members in the order `appendJSON` writes them (sorted): every property but
  /// `scale` (written as `scale.x` and `scale.y`), `position` and `size` (read from `frame`).
  private static let layerMembers: [LayerMember] =
    (LayerProperty.allCases.filter { ![.scale, .position, .size].contains($0) }.map {
      LayerMember.property($0)
    } + [.id, .content, .tracks]).sorted { $0.name < $1.name }

  private static func write(_ layer: TimelineLayer, into sink: inout ByteSink) {
    var first = true
    func member(_ name: String) {
      if !first { sink.append(UInt8(ascii: ",")) }
      first = false
      sink.appendString(name)
      sink.append(UInt8(ascii: ":"))
    }
    sink.append(UInt8(ascii: "{"))
    for entry in layerMembers {
      switch entry {
      case .property(let property):
        guard property == .frame || !layer.initial.hasDefaultValue(of: property) else { continue }
        member(property.rawValue)
        write(layer.initial.value(of: property), into: &sink)
      case .id:
        member("id")
        sink.appendString(layer.id)
      case .content:
        guard let content = layer.content else { continue }
        member("content")
        sink.appendJSON(content)
      case .tracks:
        guard !layer.tracks.isEmpty else { continue }
        member("tracks")
        sink.append(UInt8(ascii: "["))
        for (index, track) in layer.tracks.enumerated() {
          if index > 0 { sink.append(UInt8(ascii: ",")) }
          write(track, into: &sink)
        }
        sink.append(UInt8(ascii: "]"))
      }
    }
    sink.append(UInt8(ascii: "}"))
  }

  private static func write(_ track: PropertyTrack, into sink: inout ByteSink) {
    sink.append("{\"property\":")
    sink.appendString(track.property.rawValue)
    if track.mode != .linear {
      sink.append(",\"mode\":")
      sink.appendString(track.mode.rawValue)
    }
    sink.append(",\"keyframes\":[")
    for (index, keyframe) in track.keyframes.enumerated() {
      if index > 0 { sink.append(UInt8(ascii: ",")) }
      sink.append(UInt8(ascii: "{"))
      if keyframe.curve != .linear {
        sink.append("\"curve\":")
        sink.appendJSON(keyframe.curve.json)
        sink.append(UInt8(ascii: ","))
      }
      sink.append("\"duration\":")
      sink.appendNumber(keyframe.relativeDuration)
      sink.append(",\"start\":")
      sink.appendNumber(keyframe.relativeStart)
      sink.append(",\"value\":")
      write(keyframe.value, into: &sink)
      sink.append(UInt8(ascii: "}"))
    }
    sink.append("]}")
  }

  /// A value as `PropertyValue.json` spells it.
  private static func write(_ value: PropertyValue, into sink: inout ByteSink) {
    // Two or four numbers as an array (not variadic: no array is made per value).
    func numbers(_ a: Double, _ b: Double, _ c: Double? = nil, _ d: Double? = nil) {
      sink.append(UInt8(ascii: "["))
      sink.appendNumber(a)
      sink.append(UInt8(ascii: ","))
      sink.appendNumber(b)
      if let c, let d {
        sink.append(UInt8(ascii: ","))
        sink.appendNumber(c)
        sink.append(UInt8(ascii: ","))
        sink.appendNumber(d)
      }
      sink.append(UInt8(ascii: "]"))
    }
    switch value {
    case .number(let number): sink.appendNumber(number)
    case .point(let point): numbers(point.x, point.y)
    case .size(let size): numbers(size.width, size.height)
    case .rect(let rect): numbers(rect.x, rect.y, rect.width, rect.height)
    case .color(let color):
      if let color { sink.appendString(color.hex) } else { sink.append("null") }
    case .bool(let flag): sink.append(flag ? "true" : "false")
    case .layer(let id):
      if let id { sink.appendString(id) } else { sink.append("null") }
    case .transform(let transform):
      sink.append(UInt8(ascii: "["))
      for (index, number) in transform.elements.enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        sink.appendNumber(number)
      }
      sink.append(UInt8(ascii: "]"))
    }
  }
}
