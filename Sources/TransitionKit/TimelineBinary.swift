import TransitionJSON

/// The timeline's binary form: what the plugin host sends the daemon for a timeline it built
/// itself (a data animator's), so that neither process writes or parses the numbers as text
/// (docs/plugins.md, "The host protocol"). Little-endian throughout:
///
/// ```
/// timeline   "TLB" 1 · f64 duration · curve · u8 has-gesture [string: the gesture's JSON]
///            · u32 n · n × string (warnings) · u32 n · n × layer · extras
/// extras     each a u8 tag and its value, in tag order, each only when the timeline sets it
///            (a timeline without one ends with its layers): 1 handover (f64 seconds),
///            2 appearance (u32 n · n × (u32 layer index, rising · u16 appearance fields set
///            · each field set, in bit order)), for the layers whose appearance is not at
///            its default
/// layer      string id · u8 has-content [string: the content's JSON] · 4 × f64 frame
///            · u16 fields set · each field set, in bit order · u32 n · n × track
/// fields     bit 0 anchor (2 × f64), 1 alpha, 2 hidden (u8 0 or 1), 3 z, 4 background
///            (u8 0 none, or 1 and 4 × u8 RGBA), 5 transform (16 × f64, `elements` order),
///            6 rotationX, 7 rotationY, 8 rotationZ, 9 scaleX, 10 scaleY, 11 translationX,
///            12 translationY, 13 translationZ, 14 perspective (one f64 each)
/// appearance bit 0 cornerRadius (f64), 1 clips (u8), 2 border.width (f64), 3 border.color
///            (as a field's background), 4 shadow.color (likewise), 5 shadow.blur (f64),
///            6 shadow.offset (2 × f64), 7 clipTo (u8 0 none, or 1 and a string)
/// track      u8 property (`LayerProperty.allCases` index) · u8 mode (`CalculationMode`
///            index) · u32 n · n × (f64 start · f64 duration · value · curve)
/// value      of the property's kind: number f64, point and size 2 × f64, rect 4 × f64,
///            colour as a field's background, bool u8, transform 16 × f64, layer as clipTo
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
  /// The first bytes of the binary form: `TLB` and the form's version.
  static let binaryMagic: [UInt8] = [UInt8(ascii: "T"), UInt8(ascii: "L"), UInt8(ascii: "B"), 1]

  /// Whether `bytes` that a `make_timeline` returned are in the binary form, of any version
  /// (they start with `TLB`), rather than JSON, which never starts with `T`.
  public static func isBinaryForm(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: binaryMagic.prefix(3))
  }

  /// Decodes the bytes a `make_timeline` returned: the binary form (the SDK's) or JSON (a C
  /// plugin's), told apart by ``isBinaryForm(_:)``.
  public init(returned bytes: [UInt8]) throws(EngineError) {
    if Self.isBinaryForm(bytes) {
      try self.init(binary: bytes)
    } else {
      try self.init(jsonBytes: bytes)
    }
  }

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
    if let handover {
      writer.integer(BinaryExtra.handover.rawValue)
      writer.number(handover)
    }
    writer.appearance(of: layers)
    return writer.bytes
  }

  /// Decodes a timeline from its binary form.
  /// - Throws: `EngineError`: `invalid_value` naming the byte where the form is broken, or
  ///   what `Timeline(duration:curve:layers:gesture:)` and the other validating initialisers
  ///   refuse.
  public init(binary: some Collection<UInt8>) throws(EngineError) {
    // Read in place (bytes that lie in one buffer are not copied).
    self = try binary.withContiguousBytes { Self.read(UnsafeRawBufferPointer($0)) }.get()
  }

  private static func read(_ raw: UnsafeRawBufferPointer) -> Result<Timeline, EngineError> {
    Result { () throws(EngineError) -> Timeline in
      var reader = BinaryTimelineReader(raw)
      let timeline = try reader.timeline()
      try reader.end()
      return timeline
    }
  }
}

/// The tags of the extras that may follow a timeline's layers.
enum BinaryExtra: UInt8 {
  case handover = 1
  case appearance = 2
}

/// The properties and modes in the order of their index in the binary form, and the fields of
/// a layer's bit set.
enum BinaryIndex {
  static let properties = LayerProperty.allCases
  /// The properties a layer stores besides its frame (the others are read from the frame or,
  /// for `scale`, from `scale.x` and `scale.y`), each by its bit in a layer's fields, up to
  /// the first of its appearance.
  static let fields = properties[..<firstAppearance].filter {
    ![.frame, .position, .size, .scale].contains($0)
  }
  /// The properties of a layer's appearance, each by its bit in the `appearance` extra.
  static let appearanceFields = Array(properties[firstAppearance...])
  private static var firstAppearance: Int { properties.firstIndex(of: .cornerRadius)! }
  static let modes = CalculationMode.allCases
  static let property: [LayerProperty: UInt8] = Dictionary(
    uniqueKeysWithValues: properties.enumerated().map { ($1, UInt8($0)) })
  static let mode: [CalculationMode: UInt8] = Dictionary(
    uniqueKeysWithValues: modes.enumerated().map { ($1, UInt8($0)) })
}
