import TransitionJSON

/// The timeline's binary form: what the plugin host sends the daemon for a timeline it built
/// itself (a data animator's), so that neither process writes or parses the numbers as text
/// (docs/plugins.md, "The host protocol"). Little-endian throughout:
///
/// ```
/// timeline   "TLB" 1 · f64 duration · curve · u8 has-gesture [string: the gesture's JSON]
///            · u32 n · n × string (warnings) · u32 n · n × layer
/// layer      string id · u8 has-content [string: the content's JSON] · 4 × f64 frame
///            · u16 fields set · each field set, in bit order · u32 n · n × track
/// fields     bit 0 anchor (2 × f64), 1 alpha, 2 hidden (u8 0 or 1), 3 z, 4 background
///            (u8 0 none, or 1 and 4 × u8 RGBA), 5 transform (16 × f64, `elements` order),
///            6 rotationX, 7 rotationY, 8 rotationZ, 9 scaleX, 10 scaleY, 11 translationX,
///            12 translationY, 13 translationZ, 14 perspective (one f64 each)
/// track      u8 property (`LayerProperty.allCases` index) · u8 mode (`CalculationMode`
///            index) · u32 n · n × (f64 start · f64 duration · value · curve)
/// value      of the property's kind: number f64, point and size 2 × f64, rect 4 × f64,
///            colour as a field's background, bool u8, transform 16 × f64
/// curve      u8 0 linear · 1 cubic Bézier 4 × f64 (x1 y1 x2 y2) · 2 steps u32 count and u8
///            position (0 start, 1 end) · 3 spring 4 × f64 (mass stiffness damping velocity)
/// string     u32 byte count · UTF-8
/// ```
///
/// A colour is 8 bits a component, as `#rrggbbaa` is, so a timeline reads back as its JSON
/// text would. The reader checks the shape (every count against the bytes left, every tag,
/// valid UTF-8, nothing after the end) and then builds the timeline with the validating
/// initialisers the JSON decoders use, so it accepts no timeline they would refuse.
extension Timeline {
  /// The first bytes of the binary form.
  static let binaryMagic: [UInt8] = [UInt8(ascii: "T"), UInt8(ascii: "L"), UInt8(ascii: "B"), 1]

  /// The timeline in its binary form.
  public var binaryEncoded: [UInt8] {
    var writer = BinaryTimelineWriter()
    writer.bytes.reserveCapacity(64 + layers.count * 256)
    writer.bytes.append(contentsOf: Self.binaryMagic)
    writer.number(duration)
    writer.curve(curve)
    writer.optionalJSON(gesture?.json)
    writer.count(warnings.count)
    for warning in warnings { writer.string(warning) }
    writer.count(layers.count)
    for index in layers.indices { writer.layer(layers[index]) }
    return writer.bytes
  }

  /// Decodes a timeline from its binary form.
  /// - Throws: `EngineError`: `invalid_value` naming the byte where the form is broken, or
  ///   what `Timeline(duration:curve:layers:gesture:)` and the other validating initialisers
  ///   refuse.
  public init(binary: some Collection<UInt8>) throws(EngineError) {
    let bytes = Array(binary)
    let read = bytes.withUnsafeBytes { raw in
      Result { () throws(EngineError) -> Timeline in
        var reader = BinaryTimelineReader(raw)
        let timeline = try reader.timeline()
        try reader.end()
        return timeline
      }
    }
    self = try read.get()
  }
}

/// The stored fields of `LayerAttributes` other than `frame`, by their bit in the binary form.
private enum BinaryField: Int, CaseIterable {
  case anchor, alpha, hidden, z, background, transform, rotationX, rotationY, rotationZ
  case scaleX, scaleY, translationX, translationY, translationZ, perspective

  static let all = allCases

  /// The field's number, for the fields that are one.
  func number(of attributes: LayerAttributes) -> Double {
    switch self {
    case .alpha: attributes.alpha
    case .z: attributes.z
    case .rotationX: attributes.rotationX
    case .rotationY: attributes.rotationY
    case .rotationZ: attributes.rotationZ
    case .scaleX: attributes.scaleX
    case .scaleY: attributes.scaleY
    case .translationX: attributes.translationX
    case .translationY: attributes.translationY
    case .translationZ: attributes.translationZ
    case .perspective: attributes.perspective
    case .anchor, .hidden, .background, .transform: 0
    }
  }

  /// Sets the field's number, for the fields that are one.
  func setNumber(_ value: Double, in attributes: inout LayerAttributes) {
    switch self {
    case .alpha: attributes.alpha = value
    case .z: attributes.z = value
    case .rotationX: attributes.rotationX = value
    case .rotationY: attributes.rotationY = value
    case .rotationZ: attributes.rotationZ = value
    case .scaleX: attributes.scaleX = value
    case .scaleY: attributes.scaleY = value
    case .translationX: attributes.translationX = value
    case .translationY: attributes.translationY = value
    case .translationZ: attributes.translationZ = value
    case .perspective: attributes.perspective = value
    case .anchor, .hidden, .background, .transform: break
    }
  }

  /// Whether `attributes` hold another value than a fresh layer's in this field.
  func isSet(in attributes: LayerAttributes, defaults: LayerAttributes) -> Bool {
    switch self {
    case .anchor: attributes.anchor != defaults.anchor
    case .hidden: attributes.hidden != defaults.hidden
    case .background: attributes.background != defaults.background
    case .transform: attributes.transform != defaults.transform
    // Bit for bit, so that -0 is written as it is.
    default: number(of: attributes).bitPattern != number(of: defaults).bitPattern
    }
  }
}

/// The properties and modes in the order of their index in the binary form.
private enum BinaryIndex {
  static let properties = LayerProperty.allCases
  static let modes = CalculationMode.allCases
  static let property: [LayerProperty: UInt8] = Dictionary(
    uniqueKeysWithValues: properties.enumerated().map { ($1, UInt8($0)) })
  static let mode: [CalculationMode: UInt8] = Dictionary(
    uniqueKeysWithValues: modes.enumerated().map { ($1, UInt8($0)) })
}

private struct BinaryTimelineWriter {
  var bytes: [UInt8] = []

  /// The bytes of a fixed-width integer, little-endian, copied at once.
  mutating func integer(_ value: some FixedWidthInteger) {
    withUnsafeBytes(of: value.littleEndian) {
      bytes.append(contentsOf: $0.bindMemory(to: UInt8.self))
    }
  }

  mutating func number(_ value: Double) { integer(value.bitPattern) }

  mutating func count(_ value: Int) { integer(UInt32(truncatingIfNeeded: value)) }

  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      count(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func optionalJSON(_ value: JSONValue?) {
    guard let value else { return bytes.append(0) }
    bytes.append(1)
    string(value.serialized)
  }

  mutating func color(_ color: Color?) {
    guard let color else { return bytes.append(0) }
    let components = color.bytes
    bytes.append(contentsOf: [
      1, components.red, components.green, components.blue, components.alpha,
    ])
  }

  mutating func transform(_ t: Transform3D) {
    numbers(t.m11, t.m12, t.m13, t.m14)
    numbers(t.m21, t.m22, t.m23, t.m24)
    numbers(t.m31, t.m32, t.m33, t.m34)
    numbers(t.m41, t.m42, t.m43, t.m44)
  }

  /// Four numbers, without an array made for them.
  mutating func numbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
    number(a)
    number(b)
    number(c)
    number(d)
  }

  mutating func curve(_ curve: TimingCurve) {
    switch curve {
    case .linear:
      bytes.append(0)
    case .cubicBezier(let x1, let y1, let x2, let y2):
      bytes.append(1)
      numbers(x1, y1, x2, y2)
    case .steps(let count, let position):
      bytes.append(2)
      self.count(count)
      bytes.append(position == .start ? 0 : 1)
    case .spring(let spring):
      bytes.append(3)
      numbers(spring.mass, spring.stiffness, spring.damping, spring.initialVelocity)
    }
  }

  mutating func value(_ value: PropertyValue) {
    switch value {
    case .number(let value): number(value)
    case .point(let point):
      number(point.x)
      number(point.y)
    case .size(let size):
      number(size.width)
      number(size.height)
    case .rect(let rect): self.rect(rect)
    case .color(let color): self.color(color)
    case .bool(let flag): bytes.append(flag ? 1 : 0)
    case .transform(let matrix): transform(matrix)
    }
  }

  mutating func rect(_ rect: Rect) {
    numbers(rect.x, rect.y, rect.width, rect.height)
  }

  mutating func layer(_ layer: TimelineLayer) {
    string(layer.id)
    optionalJSON(layer.content)
    let initial = layer.initial
    rect(initial.frame)
    let defaults = LayerAttributes(frame: initial.frame)
    var mask: UInt16 = 0
    for field in BinaryField.all where field.isSet(in: initial, defaults: defaults) {
      mask |= 1 << UInt16(field.rawValue)
    }
    integer(mask)
    for field in BinaryField.all where mask & 1 << UInt16(field.rawValue) != 0 {
      switch field {
      case .anchor:
        number(initial.anchor.x)
        number(initial.anchor.y)
      case .hidden: bytes.append(initial.hidden ? 1 : 0)
      case .background: color(initial.background)
      case .transform: transform(initial.transform)
      default: number(field.number(of: initial))
      }
    }
    count(layer.tracks.count)
    for track in layer.tracks {
      bytes.append(BinaryIndex.property[track.property] ?? 0)
      bytes.append(BinaryIndex.mode[track.mode] ?? 0)
      count(track.keyframes.count)
      for keyframe in track.keyframes {
        number(keyframe.relativeStart)
        number(keyframe.relativeDuration)
        value(keyframe.value)
        curve(keyframe.curve)
      }
    }
  }
}

/// Reads the binary form from a buffer, every read checked against the bytes left.
private struct BinaryTimelineReader {
  let raw: UnsafeRawBufferPointer
  var offset = 0

  init(_ raw: UnsafeRawBufferPointer) {
    self.raw = raw
  }

  func broken(_ what: String) -> EngineError {
    EngineError(.invalidValue, "the binary timeline is malformed at byte \(offset): \(what)")
  }

  mutating func take(_ count: Int) throws(EngineError) -> UnsafeRawBufferPointer {
    guard count <= raw.count - offset else { throw broken("it ends early") }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)])
  }

  mutating func byte() throws(EngineError) -> UInt8 { try take(1)[0] }

  mutating func number() throws(EngineError) -> Double {
    Double(bitPattern: UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self)))
  }

  /// A count of items that take at least `itemBytes` bytes each.
  mutating func count(itemBytes: Int = 1) throws(EngineError) -> Int {
    let count = Int(UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)))
    guard count <= (raw.count - offset) / itemBytes else {
      throw broken("a count of \(count) is more than the bytes left hold")
    }
    return count
  }

  mutating func flag() throws(EngineError) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    case let other: throw broken("\(other) is neither 0 nor 1")
    }
  }

  mutating func string() throws(EngineError) -> String {
    let bytes = try take(try count())
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw broken("a string is not UTF-8")
    }
    return text
  }

  mutating func json() throws(EngineError) -> JSONValue? {
    guard try flag() else { return nil }
    let text = Array(try take(try count()))
    do { return try JSONValue(parsing: text) } catch {
      throw broken("embedded JSON: \(error.message)")
    }
  }

  mutating func color() throws(EngineError) -> Color? {
    guard try flag() else { return nil }
    let components = try take(4)
    return Color(
      red: Double(components[0]) / 255, green: Double(components[1]) / 255,
      blue: Double(components[2]) / 255, alpha: Double(components[3]) / 255)
  }

  /// A transform's sixteen numbers, as they are: the timeline's validation checks them.
  mutating func transform() throws(EngineError) -> Transform3D {
    Transform3D(
      m11: try number(), m12: try number(), m13: try number(), m14: try number(),
      m21: try number(), m22: try number(), m23: try number(), m24: try number(),
      m31: try number(), m32: try number(), m33: try number(), m34: try number(),
      m41: try number(), m42: try number(), m43: try number(), m44: try number())
  }

  mutating func curve() throws(EngineError) -> TimingCurve {
    switch try byte() {
    case 0: return .linear
    case 1:
      return .cubicBezier(x1: try number(), y1: try number(), x2: try number(), y2: try number())
    case 2:
      let count = Int(UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)))
      return .steps(count: count, position: try flag() ? .end : .start)
    case 3:
      return .spring(
        try Spring(
          mass: try number(), stiffness: try number(), damping: try number(),
          initialVelocity: try number()))
    case let tag: throw broken("unknown curve \(tag)")
    }
  }

  mutating func value(_ kind: PropertyValue.Kind) throws(EngineError) -> PropertyValue {
    switch kind {
    case .number: return .number(try number())
    case .point: return .point(Point(x: try number(), y: try number()))
    case .size: return .size(Size(width: try number(), height: try number()))
    case .rect: return .rect(try rect())
    case .color: return .color(try color())
    case .bool: return .bool(try flag())
    case .transform: return .transform(try transform())
    }
  }

  mutating func rect() throws(EngineError) -> Rect {
    Rect(x: try number(), y: try number(), width: try number(), height: try number())
  }

  mutating func layer() throws(EngineError) -> TimelineLayer {
    let id = try string()
    let content = try json()
    var initial = LayerAttributes(frame: try rect())
    let mask = UInt16(littleEndian: try take(2).loadUnaligned(as: UInt16.self))
    guard mask >> UInt16(BinaryField.all.count) == 0 else {
      throw broken("unknown layer fields \(mask)")
    }
    for field in BinaryField.all where mask & 1 << UInt16(field.rawValue) != 0 {
      switch field {
      case .anchor: initial.anchor = Point(x: try number(), y: try number())
      case .hidden: initial.hidden = try flag()
      case .background: initial.background = try color()
      case .transform: initial.transform = try transform()
      default: field.setNumber(try number(), in: &initial)
      }
    }
    var tracks: [PropertyTrack] = []
    for _ in 0..<(try count(itemBytes: 6)) {
      let propertyIndex = Int(try byte())
      let modeIndex = Int(try byte())
      guard propertyIndex < BinaryIndex.properties.count else {
        throw broken("unknown property \(propertyIndex)")
      }
      guard modeIndex < BinaryIndex.modes.count else {
        throw broken("unknown mode \(modeIndex)")
      }
      let property = BinaryIndex.properties[propertyIndex]
      var keyframes: [Keyframe] = []
      for _ in 0..<(try count(itemBytes: 18)) {
        let start = try number()
        let duration = try number()
        let value = try value(property.kind)
        keyframes.append(
          Keyframe(start: start, duration: duration, value: value, curve: try curve()))
      }
      tracks.append(
        PropertyTrack(property, mode: BinaryIndex.modes[modeIndex], keyframes: keyframes))
    }
    return TimelineLayer(id: id, initial: initial, content: content, tracks: tracks)
  }

  mutating func timeline() throws(EngineError) -> Timeline {
    guard raw.count >= 4, Array(raw[0..<4]) == Timeline.binaryMagic else {
      throw broken("it does not start with the binary timeline's magic")
    }
    offset = 4
    let duration = try number()
    let curve = try curve()
    let gesture = try json().map { json throws(EngineError) in
      try TimelineGesture(json: JSONField(json, path: "gesture"))
    }
    var warnings: [String] = []
    for _ in 0..<(try count(itemBytes: 4)) { warnings.append(try string()) }
    var layers: [TimelineLayer] = []
    for _ in 0..<(try count(itemBytes: 43)) { layers.append(try layer()) }
    var timeline = try Timeline(duration: duration, curve: curve, layers: layers, gesture: gesture)
    timeline.warnings = warnings
    return timeline
  }

  func end() throws(EngineError) {
    guard offset == raw.count else { throw broken("\(raw.count - offset) bytes after the end") }
  }
}
