import TransitionJSON

/// Writes the binary form of a timeline (``Timeline/binaryEncoded``, the format in
/// TimelineBinary.swift).
struct BinaryTimelineWriter {
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
    bytes.append(1)
    bytes.append(components.red)
    bytes.append(components.green)
    bytes.append(components.blue)
    bytes.append(components.alpha)
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
    case .layer(let id):
      guard let id else { return bytes.append(0) }
      bytes.append(1)
      string(id)
    }
  }

  mutating func rect(_ rect: Rect) {
    numbers(rect.x, rect.y, rect.width, rect.height)
  }

  /// The `appearance` extra, when a layer's appearance is not at its default.
  mutating func appearance(of layers: [TimelineLayer]) {
    func mask(_ initial: LayerAttributes) -> UInt16 {
      var mask: UInt16 = 0
      for (bit, property) in BinaryIndex.appearanceFields.enumerated()
      where !initial.hasDefaultValue(of: property) {
        mask |= 1 << UInt16(bit)
      }
      return mask
    }
    let styled = layers.indices.filter { mask(layers[$0].initial) != 0 }
    guard !styled.isEmpty else { return }
    integer(BinaryExtra.appearance.rawValue)
    count(styled.count)
    for index in styled {
      let initial = layers[index].initial
      let fields = mask(initial)
      count(index)
      integer(fields)
      for (bit, property) in BinaryIndex.appearanceFields.enumerated()
      where fields & 1 << UInt16(bit) != 0 {
        value(initial.value(of: property))
      }
    }
  }

  mutating func layer(_ layer: TimelineLayer) {
    string(layer.id)
    optionalJSON(layer.content)
    let initial = layer.initial
    rect(initial.frame)
    var mask: UInt16 = 0
    for (bit, property) in BinaryIndex.fields.enumerated()
    where !initial.hasDefaultValue(of: property) {
      mask |= 1 << UInt16(bit)
    }
    integer(mask)
    for (bit, property) in BinaryIndex.fields.enumerated() where mask & 1 << UInt16(bit) != 0 {
      value(initial.value(of: property))
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
