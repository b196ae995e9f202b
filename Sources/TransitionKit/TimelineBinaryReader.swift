import TransitionJSON

/// Reads the binary form of a timeline (``Timeline/init(binary:)``, the format in
/// TimelineBinary.swift) from a buffer, every read checked against the bytes left.
struct BinaryTimelineReader {
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
    return UnsafeRawBufferPointer(start: raw.baseAddress.map { $0 + offset }, count: count)
  }

  /// A little-endian integer, read in place (no slice of the buffer is made for it).
  @inline(__always)
  mutating func integer<Integer: FixedWidthInteger>(
    _: Integer.Type
  ) throws(EngineError) -> Integer {
    let size = MemoryLayout<Integer>.size
    // Not an empty buffer, then: it has a base address.
    guard size <= raw.count - offset else { throw broken("it ends early") }
    defer { offset += size }
    return Integer(
      littleEndian: raw.baseAddress.unsafelyUnwrapped.loadUnaligned(
        fromByteOffset: offset, as: Integer.self))
  }

  mutating func byte() throws(EngineError) -> UInt8 { try integer(UInt8.self) }

  mutating func number() throws(EngineError) -> Double {
    Double(bitPattern: try integer(UInt64.self))
  }

  mutating func uint32() throws(EngineError) -> Int { Int(try integer(UInt32.self)) }

  /// A count of items that take at least `itemBytes` bytes each.
  mutating func count(itemBytes: Int = 1) throws(EngineError) -> Int {
    let count = try uint32()
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
    let bytes = try take(try count()).assumingMemoryBound(to: UInt8.self)
    // ASCII (every id and most warnings) is valid UTF-8 as it is: decoded without the
    // validating initialiser's slower path, to the same string.
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw broken("a string is not UTF-8")
    }
    return text
  }

  mutating func json() throws(EngineError) -> JSONValue? {
    guard try flag() else { return nil }
    // Parsed where it lies, not copied first.
    let text = try take(try count()).assumingMemoryBound(to: UInt8.self)
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
      return .steps(count: try uint32(), position: try flag() ? .end : .start)
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
    case .layer: return .layer(try flag() ? try string() : nil)
    }
  }

  mutating func rect() throws(EngineError) -> Rect {
    Rect(x: try number(), y: try number(), width: try number(), height: try number())
  }

  mutating func layer() throws(EngineError) -> TimelineLayer {
    let id = try string()
    let content = try json()
    var initial = LayerAttributes(frame: try rect())
    let mask = try integer(UInt16.self)
    let fields = BinaryIndex.fields
    guard mask >> UInt16(fields.count) == 0 else {
      throw broken("unknown layer fields \(mask)")
    }
    var bits = mask
    while bits != 0 {
      let property = fields[bits.trailingZeroBitCount]
      initial.set(property, to: try value(property.kind))
      bits &= bits - 1
    }
    // Each count is checked against the bytes left before room is made for it.
    let trackCount = try count(itemBytes: 6)
    var tracks: [PropertyTrack] = []
    tracks.reserveCapacity(trackCount)
    for _ in 0..<trackCount {
      let propertyIndex = Int(try byte())
      let modeIndex = Int(try byte())
      guard propertyIndex < BinaryIndex.properties.count else {
        throw broken("unknown property \(propertyIndex)")
      }
      guard modeIndex < BinaryIndex.modes.count else {
        throw broken("unknown mode \(modeIndex)")
      }
      let property = BinaryIndex.properties[propertyIndex]
      let kind = property.kind
      let keyframeCount = try count(itemBytes: 18)
      var keyframes: [Keyframe] = []
      keyframes.reserveCapacity(keyframeCount)
      for _ in 0..<keyframeCount {
        let start = try number()
        let duration = try number()
        let value = try value(kind)
        keyframes.append(
          Keyframe(start: start, duration: duration, value: value, curve: try curve()))
      }
      tracks.append(
        PropertyTrack(property, mode: BinaryIndex.modes[modeIndex], keyframes: keyframes))
    }
    return TimelineLayer(id: id, initial: initial, content: content, tracks: tracks)
  }

  /// The `appearance` extra: the appearance of the layers it lists, in rising order.
  mutating func appearance(of layers: inout [TimelineLayer]) throws(EngineError) {
    let fields = BinaryIndex.appearanceFields
    var next = 0
    for _ in 0..<(try count(itemBytes: 6)) {
      let index = try uint32()
      guard index >= next, index < layers.count else {
        throw broken("layer \(index) is not a layer after the one before it")
      }
      next = index + 1
      let mask = try integer(UInt16.self)
      guard mask != 0, mask >> UInt16(fields.count) == 0 else {
        throw broken("appearance fields \(mask)")
      }
      var bits = mask
      while bits != 0 {
        let property = fields[bits.trailingZeroBitCount]
        layers[index].initial.set(property, to: try value(property.kind))
        bits &= bits - 1
      }
    }
  }

  mutating func timeline() throws(EngineError) -> Timeline {
    let magic = Timeline.binaryMagic
    guard raw.count >= 4, raw[0] == magic[0], raw[1] == magic[1], raw[2] == magic[2] else {
      throw broken("it does not start with the binary timeline's magic")
    }
    guard raw[3] == magic[3] else {
      throw EngineError(
        .invalidValue,
        "the binary timeline is of version \(raw[3]); this build reads version \(magic[3])")
    }
    offset = 4
    let duration = try number()
    let curve = try curve()
    let gesture = try json().map { json throws(EngineError) in
      try TimelineGesture(json: JSONField(json, path: "gesture"))
    }
    let warningCount = try count(itemBytes: 4)
    var warnings: [String] = []
    warnings.reserveCapacity(warningCount)
    for _ in 0..<warningCount { warnings.append(try string()) }
    let layerCount = try count(itemBytes: 43)
    var layers: [TimelineLayer] = []
    layers.reserveCapacity(layerCount)
    for _ in 0..<layerCount { layers.append(try layer()) }
    // The extras, each at most once and in tag order; any other byte is left for `end()`.
    var handover: Double?
    if offset < raw.count, raw[offset] == BinaryExtra.handover.rawValue {
      offset += 1
      handover = try number()
    }
    if offset < raw.count, raw[offset] == BinaryExtra.appearance.rawValue {
      offset += 1
      try appearance(of: &layers)
    }
    var timeline = try Timeline(
      duration: duration, curve: curve, layers: layers, gesture: gesture, handover: handover)
    timeline.warnings = warnings
    return timeline
  }

  func end() throws(EngineError) {
    guard offset == raw.count else { throw broken("\(raw.count - offset) bytes after the end") }
  }
}
