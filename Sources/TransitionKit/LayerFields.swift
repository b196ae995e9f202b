/// A set of the evaluated fields of a layer (``LayerState``'s `frame`, `anchor`, `transform`,
/// `alpha`, `hidden`, `z`, `background`, `cornerRadius`, `clips`, `border`, `shadow`, `clipTo`, each declared in ``LayerFieldSchema``): for example the fields a timeline animates on one
/// layer (``TimelineEvaluator/animatedFields``), every other field keeping its initial value in
/// every frame.
public struct LayerFields: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16

  @inlinable
  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  @inlinable public static var frame: LayerFields { LayerFields(rawValue: 1 << 0) }
  @inlinable public static var anchor: LayerFields { LayerFields(rawValue: 1 << 1) }
  @inlinable public static var transform: LayerFields { LayerFields(rawValue: 1 << 2) }
  @inlinable public static var alpha: LayerFields { LayerFields(rawValue: 1 << 3) }
  @inlinable public static var hidden: LayerFields { LayerFields(rawValue: 1 << 4) }
  @inlinable public static var z: LayerFields { LayerFields(rawValue: 1 << 5) }
  @inlinable public static var background: LayerFields { LayerFields(rawValue: 1 << 6) }
  @inlinable public static var cornerRadius: LayerFields { LayerFields(rawValue: 1 << 7) }
  @inlinable public static var clips: LayerFields { LayerFields(rawValue: 1 << 8) }
  @inlinable public static var border: LayerFields { LayerFields(rawValue: 1 << 9) }
  @inlinable public static var shadow: LayerFields { LayerFields(rawValue: 1 << 10) }
  @inlinable public static var clipTo: LayerFields { LayerFields(rawValue: 1 << 11) }

  /// Each field alone, in the order a frame writes them (docs/protocol.md, `frame`): the
  /// bits of ``LayerFieldSchema/all``.
  public static let each: [LayerFields] = LayerFieldSchema.all.map { $0.bit }

  /// Every field.
  public static let all = LayerFields(each)
}
