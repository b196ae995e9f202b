/// A property of a layer that a timeline can animate, named as on the wire.
///
/// The scalar transform components (`rotation.x` … `perspective`) are composed into the layer's
/// transform at evaluation time, like Core Animation's `transform.rotation.y` key paths, so that
/// a cover can flip by −π exactly (no matrix interpolation can express a half turn).
public enum LayerProperty: String, CaseIterable, Hashable, Sendable {
  /// The untransformed box `[x, y, w, h]` in container coordinates.
  case frame
  /// The centre of `frame` (UIKit's `center`); setting it keeps the size.
  case position
  /// The size of `frame`; setting it keeps the centre.
  case size
  /// The transform origin in unit coordinates of `frame`.
  case anchor
  case alpha
  case hidden
  /// Paint order; higher is on top.
  case z
  case background
  /// The layer's own 4x4 matrix; the scalar components below are applied after it.
  case transform
  case rotationX = "rotation.x"
  case rotationY = "rotation.y"
  case rotationZ = "rotation.z"
  /// Uniform scale: writes both `scale.x` and `scale.y`; reads `scale.x`.
  case scale
  case scaleX = "scale.x"
  case scaleY = "scale.y"
  case translationX = "translation.x"
  case translationY = "translation.y"
  case translationZ = "translation.z"
  /// The m34 entry of a perspective matrix applied last, e.g. −1/500.
  case perspective
  /// The radius of the box's rounded corners, in points (at least 0).
  case cornerRadius

  /// The properties that are lengths, which may not be negative: a radius, a width, a blur.
  public static let lengths: [LayerProperty] = allCases.filter(\.isLength)

  /// Whether the property is a length in points, which may not be negative.
  public var isLength: Bool {
    switch self {
    case .cornerRadius: true
    default: false
    }
  }

  /// The kind of value the property holds.
  public var kind: PropertyValue.Kind {
    switch self {
    case .frame: .rect
    case .position, .anchor: .point
    case .size: .size
    case .hidden: .bool
    case .background: .color
    case .transform: .transform
    case .alpha, .z, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY,
      .translationX, .translationY, .translationZ, .perspective, .cornerRadius:
      .number
    }
  }
}
