import TransitionJSON

/// The timeline codec's fast path: reads a timeline straight from its JSON text with a
/// ``JSONReader``, without building a `JSONValue` tree or a path for every field, for the
/// timelines the plugin host sends on every `begin` (docs/performance.md).
///
/// It accepts only what `Timeline(json:)` accepts and builds the same timeline (the same
/// validating initialisers, the initial values set in the same order); on anything else (a
/// syntax error, an unknown or repeated member, a value of the wrong type, a value the engine
/// refuses) it gives up and returns nil, and `Timeline(jsonBytes:)` decodes the text again
/// with `Timeline(json:)`, whose error names the field. So errors are the reference decoder's,
/// word for word, and the fast path never needs paths.
enum TimelineReader {
  /// The timeline `bytes` hold, or nil when the reference decoder must decide.
  static func timeline(_ bytes: UnsafeBufferPointer<UInt8>) -> Timeline? {
    var reader = JSONReader(bytes)
    do {
      let timeline = try root(&reader)
      try reader.end()
      return timeline
    } catch {
      return nil
    }
  }

  private static func root(_ reader: inout JSONReader) throws -> Timeline {
    var seen = SeenMembers()
    var duration: Double?
    var curve = TimingCurve.linear
    var layers: [TimelineLayer] = []
    var gesture: TimelineGesture?
    var warnings: JSONValue?
    var handover: Double?
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "duration":
        try seen.insert(0)
        duration = try reader.number()
      case "curve":
        try seen.insert(1)
        if try !reader.null() { curve = try timingCurve(&reader) }
      case "layers":
        try seen.insert(2)
        try reader.beginArray()
        while try reader.nextElement() { layers.append(try layer(&reader)) }
      case "gesture":
        try seen.insert(3)
        if try !reader.null() {
          gesture = try TimelineGesture(json: JSONField(try reader.value(), path: "gesture"))
        }
      case "warnings":
        try seen.insert(4)
        warnings = try reader.value()
      case "handover":
        try seen.insert(5)
        if try !reader.null() { handover = try reader.number() }
      default:
        throw Unreadable()
      }
    }
    guard let duration else { throw Unreadable() }
    var timeline = try Timeline(
      duration: duration, curve: curve, layers: layers, gesture: gesture, handover: handover)
    if let warnings, warnings != .null {
      // As `Timeline(json:)` reads them: only the kept ones must be strings.
      for element in try JSONField(warnings, path: "warnings").elements()
        .prefix(Timeline.maximumWarnings)
      {
        timeline.warnings.append(try element.string())
      }
    }
    return timeline
  }

  /// Member bits of a layer: its properties by their place in `LayerProperty.allCases`, then
  /// these.
  private static let idBit = LayerProperty.allCases.count
  private static let contentBit = idBit + 1
  private static let tracksBit = idBit + 2

  private static func layer(_ reader: inout JSONReader) throws -> TimelineLayer {
    var seen = SeenMembers()
    var id: String?
    var content: JSONValue?
    var tracks: [PropertyTrack] = []
    var frame: Rect?
    // The initial values, set once all are read, in `allCases` order as `Timeline(json:)`
    // sets them (`scale` and `scale.x` write the same number).
    var values: [(Int, PropertyValue)] = []
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "id":
        try seen.insert(idBit)
        id = try reader.string()
      case "content":
        try seen.insert(contentBit)
        let value = try reader.value()
        content = value == .null ? JSONValue?.none : value
      case "tracks":
        try seen.insert(tracksBit)
        if try !reader.null() {
          try reader.beginArray()
          while try reader.nextElement() { tracks.append(try track(&reader)) }
        }
      default:
        guard let property = LayerProperty(rawValue: key) else { throw Unreadable() }
        let bit = LayerProperty.allCases.firstIndex(of: property)!
        try seen.insert(bit)
        if try reader.null() {
          // Absent, as `optional` reads a null; `frame` is required.
          if property == .frame { throw Unreadable() }
          continue
        }
        let value = try propertyValue(&reader, kind: property.kind)
        if property == .frame {
          guard case .rect(let rect) = value else { throw Unreadable() }
          frame = rect
        } else {
          values.append((bit, value))
        }
      }
    }
    guard let id, let frame else { throw Unreadable() }
    var initial = LayerAttributes(frame: frame)
    if values.count > 1 { values.sort { $0.0 < $1.0 } }
    for (bit, value) in values { initial.set(LayerProperty.allCases[bit], to: value) }
    return TimelineLayer(id: id, initial: initial, content: content, tracks: tracks)
  }

  private static func track(_ reader: inout JSONReader) throws -> PropertyTrack {
    var seen = SeenMembers()
    var property: LayerProperty?
    var mode = CalculationMode.linear
    // Keyframe values need the property's kind: read at once when `property` came first (as
    // `Timeline.jsonText` writes it), otherwise once the object is read.
    var read: [Keyframe]?
    var keyframes: JSONReader?
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "property":
        try seen.insert(0)
        guard let parsed = LayerProperty(rawValue: try reader.string()) else {
          throw Unreadable()
        }
        property = parsed
      case "mode":
        try seen.insert(1)
        if try !reader.null() {
          guard let parsed = CalculationMode(rawValue: try reader.string()) else {
            throw Unreadable()
          }
          mode = parsed
        }
      case "keyframes":
        try seen.insert(2)
        if let property {
          read = try self.keyframes(&reader, kind: property.kind)
        } else {
          keyframes = try reader.skipValue()
        }
      default:
        throw Unreadable()
      }
    }
    guard let property else { throw Unreadable() }
    if read == nil, var keyframes {
      read = try self.keyframes(&keyframes, kind: property.kind)
    }
    guard let read else { throw Unreadable() }
    return PropertyTrack(property, mode: mode, keyframes: read)
  }

  /// A track's array of keyframes, whose values are of `kind`.
  private static func keyframes(_ reader: inout JSONReader, kind: PropertyValue.Kind) throws
    -> [Keyframe]
  {
    var read: [Keyframe] = []
    try reader.beginArray()
    while try reader.nextElement() { read.append(try keyframe(&reader, kind: kind)) }
    return read
  }

  private static func keyframe(_ reader: inout JSONReader, kind: PropertyValue.Kind) throws
    -> Keyframe
  {
    var seen = SeenMembers()
    var start = 0.0
    var duration = 1.0
    var value: PropertyValue?
    var curve = TimingCurve.linear
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "start":
        try seen.insert(0)
        if try !reader.null() { start = try reader.number() }
      case "duration":
        try seen.insert(1)
        if try !reader.null() { duration = try reader.number() }
      case "value":
        try seen.insert(2)
        // `requiredOrNull`: a null is a value, which only a colour (no colour) and a layer
        // (none) take.
        if kind == .color, try reader.null() {
          value = .color(nil)
        } else if kind == .layer, try reader.null() {
          value = .layer(nil)
        } else {
          value = try propertyValue(&reader, kind: kind)
        }
      case "curve":
        try seen.insert(3)
        if try !reader.null() { curve = try timingCurve(&reader) }
      default:
        throw Unreadable()
      }
    }
    guard let value else { throw Unreadable() }
    return Keyframe(start: start, duration: duration, value: value, curve: curve)
  }

  /// A curve: a preset name read here, an object by the reference decoder (it is rare).
  private static func timingCurve(_ reader: inout JSONReader) throws -> TimingCurve {
    if try reader.kind() == .string { return try TimingCurve(named: try reader.string()) }
    return try TimingCurve(json: JSONField(try reader.value(), path: ""))
  }

  /// A value of `kind`, checked as `PropertyValue(json:kind:)` checks it.
  private static func propertyValue(_ reader: inout JSONReader, kind: PropertyValue.Kind) throws
    -> PropertyValue
  {
    switch kind {
    case .number: return .number(try reader.number())
    case .point:
      let (x, y) = try reader.numberPair()
      return .point(Point(x: x, y: y))
    case .size:
      let (width, height) = try reader.numberPair()
      guard width >= 0, height >= 0 else { throw Unreadable() }
      return .size(Size(width: width, height: height))
    case .rect:
      let rect = try reader.rect()
      guard rect.width >= 0, rect.height >= 0 else { throw Unreadable() }
      return .rect(rect)
    case .color: return .color(try Color(hex: try reader.string()))
    case .bool: return .bool(try reader.bool())
    case .layer: return .layer(try reader.string())
    case .transform:
      var elements: [Double] = []
      elements.reserveCapacity(16)
      try reader.beginArray()
      while try reader.nextElement() {
        guard elements.count < 16 else { throw Unreadable() }
        elements.append(try reader.number())
      }
      guard elements.count == 16 else { throw Unreadable() }
      return .transform(try Transform3D(elements: elements))
    }
  }
}
