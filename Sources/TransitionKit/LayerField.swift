import TransitionJSON

/// One evaluated field of a layer (``LayerState``), declared once for everything the frame
/// path does with it: its wire key and default, where it is stored, how the evaluator makes
/// it from a layer's attributes, how a full frame and a delta write it, and how two layers'
/// values are compared and copied (docs/renderers.md, "What a layer says", is checked
/// against these declarations). The declarations are the members of ``LayerFieldSchema``;
/// ``LayerFields`` dispatches to them statically, so that the frame path inlines them.
public protocol LayerField: Sendable {
  associatedtype Value: Equatable
  /// The field's bit.
  static var bit: LayerFields { get }
  /// The field's key as a frame writes it, with its leading comma: `,"alpha":`.
  static var key: StaticString { get }
  /// Whether a full frame writes the key in the layer's head, beside the id (`frame`), and
  /// always writes the value.
  static var isInLayerHead: Bool { get }
  /// The default value as JSON text: what a full frame leaves out and what a delta writes
  /// when the field returns to it; nil for a field every layer of a full frame carries.
  static var defaultText: StaticString? { get }
  /// The most bytes ``writeValue(_:into:)`` writes.
  static var valueBound: Int { get }
  /// Whether the value is made of doubles alone (no padding, no references), so that its
  /// written text can be kept and copied while its bytes stay the same
  /// (docs/architecture.md, the frame path's `AnimatedFieldTexts`).
  static var isPlainDoubles: Bool { get }
  /// Where a layer state stores the field (its offset and size).
  static var storage: WritableKeyPath<LayerState, Value> { get }

  /// The field of the layer at `layer`, read from its stored property (the same one as
  /// ``storage``, spelled out so that the frame path reads it directly).
  static func value(of layer: UnsafePointer<LayerState>) -> Value
  /// Sets the field of the layer at `layer`.
  static func set(_ value: Value, of layer: UnsafeMutablePointer<LayerState>)
  /// Whether `value` is the default (``defaultText``), which a full frame leaves out.
  static func isDefault(_ value: Value) -> Bool
  /// The field of a layer whose model is `attributes`, as the evaluator writes it.
  static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Value
  /// Writes the value alone (no key), as JSON.
  static func writeValue<Output: FrameTextOutput>(_ value: Value, into output: inout Output)
  /// Writes the field of `layer` as a full frame does: nothing at its default, else the key
  /// (unless it is in the head) and the value.
  static func writeFull<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output)
}

extension LayerField {
  @inlinable public static var isInLayerHead: Bool { false }
  @inlinable public static var defaultText: StaticString? { nil }
  @inlinable public static var isPlainDoubles: Bool { false }

  @inlinable @inline(__always)
  public static func isDefault(_ value: Value) -> Bool { false }

  @inlinable @inline(__always)
  public static func writeFull<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output
  ) {
    let value = value(of: layer)
    if isDefault(value) { return }
    if !isInLayerHead { output.append(key) }
    writeValue(value, into: &output)
  }

  /// Writes the field of `layer` as a delta does (it changed): the key and the value, the
  /// default written out.
  @inlinable @inline(__always)
  public static func writeChanged<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output
  ) {
    let value = value(of: layer)
    output.append(key)
    if let defaultText, isDefault(value) { return output.append(defaultText) }
    writeValue(value, into: &output)
  }

  /// Whether the layers at `old` and `new` differ in the field.
  @inlinable @inline(__always)
  public static func differs(
    _ old: UnsafePointer<LayerState>, _ new: UnsafePointer<LayerState>
  ) -> Bool {
    value(of: old) != value(of: new)
  }

  /// Copies the field from the layer at `source` to the one at `target`.
  @inlinable @inline(__always)
  public static func copy(
    from source: UnsafePointer<LayerState>, to target: UnsafeMutablePointer<LayerState>
  ) {
    set(value(of: source), of: target)
  }

  /// Writes the field evaluated from `attributes` into the layer at `state`.
  @inlinable @inline(__always)
  public static func writeEvaluated(
    _ attributes: UnsafePointer<LayerAttributes>, into state: UnsafeMutablePointer<LayerState>
  ) {
    set(evaluated(attributes), of: state)
  }

  /// The field's name on the wire: its key without comma, quotes and colon.
  public static var name: String {
    let text = key.description
    return String(text.dropFirst(2).dropLast(2))
  }

  /// The most bytes ``writeFull(of:into:)`` writes.
  public static var fullBound: Int {
    (isInLayerHead ? 0 : key.utf8CodeUnitCount) + valueBound
  }

  /// The most bytes ``writeChanged(of:into:)`` writes.
  public static var changedBound: Int {
    key.utf8CodeUnitCount + max(valueBound, defaultText?.utf8CodeUnitCount ?? 0)
  }

  /// The default as a JSON value (nil for a field always carried).
  public static var defaultJSON: JSONValue? {
    defaultText.flatMap { try? JSONValue(parsing: Array($0.description.utf8)) }
  }

  /// Where the value lies in a layer state and its size, when its text may be kept by its
  /// bytes (``isPlainDoubles``).
  public static var plainStorage: (offset: Int, size: Int)? {
    guard isPlainDoubles, let offset = MemoryLayout<LayerState>.offset(of: storage) else {
      return nil
    }
    return (offset, MemoryLayout<Value>.size)
  }
}
