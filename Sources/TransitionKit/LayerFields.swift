/// A set of the evaluated fields of a layer (``LayerState``'s `frame`, `anchor`, `transform`,
/// `alpha`, `hidden`, `z`, `background`): for example the fields a timeline animates on one
/// layer (``TimelineEvaluator/animatedFields``), every other field keeping its initial value in
/// every frame.
public struct LayerFields: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  public static let frame = LayerFields(rawValue: 1 << 0)
  public static let anchor = LayerFields(rawValue: 1 << 1)
  public static let transform = LayerFields(rawValue: 1 << 2)
  public static let alpha = LayerFields(rawValue: 1 << 3)
  public static let hidden = LayerFields(rawValue: 1 << 4)
  public static let z = LayerFields(rawValue: 1 << 5)
  public static let background = LayerFields(rawValue: 1 << 6)
  /// Every field.
  public static let all: LayerFields = [
    .frame, .anchor, .transform, .alpha, .hidden, .z, .background,
  ]

  /// The fields a track of `property` changes: `frame` for the box and its parts, `transform`
  /// for the matrix and every scalar component composed into it.
  public init(_ property: LayerProperty) {
    switch property {
    case .frame, .position, .size: self = .frame
    case .anchor: self = .anchor
    case .alpha: self = .alpha
    case .hidden: self = .hidden
    case .z: self = .z
    case .background: self = .background
    case .transform, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY,
      .translationX, .translationY, .translationZ, .perspective:
      self = .transform
    }
  }
}
