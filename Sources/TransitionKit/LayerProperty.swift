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
  /// Whether the layer's content is clipped to its rounded box.
  case clips
  /// The border's width in points (at least 0) and its colour.
  case borderWidth = "border.width"
  case borderColor = "border.color"
  /// The shadow's colour (none: no shadow), blur radius in points (at least 0) and offset.
  case shadowColor = "shadow.color"
  case shadowBlur = "shadow.blur"
  case shadowOffset = "shadow.offset"
  /// The id of the layer whose rounded box clips this one, or none.
  case clipTo

  /// The properties of a layer's look beyond its box, background and paint order: its
  /// corners, clip, border and shadow.
  public static let appearance: [LayerProperty] = [
    .cornerRadius, .clips, .borderWidth, .borderColor, .shadowColor, .shadowBlur, .shadowOffset,
    .clipTo,
  ]

  /// The properties that are lengths, which may not be negative: a radius, a width, a blur.
  public static let lengths: [LayerProperty] = allCases.filter(\.isLength)

  /// Whether the property is a length in points, which may not be negative.
  public var isLength: Bool {
    switch self {
    case .cornerRadius, .borderWidth, .shadowBlur: true
    default: false
    }
  }

  /// The kind of value the property holds.
  public var kind: PropertyValue.Kind {
    switch self {
    case .frame: .rect
    case .position, .anchor, .shadowOffset: .point
    case .size: .size
    case .hidden, .clips: .bool
    case .background, .borderColor, .shadowColor: .color
    case .clipTo: .layer
    case .transform: .transform
    case .alpha, .z, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY,
      .translationX, .translationY, .translationZ, .perspective, .cornerRadius, .borderWidth,
      .shadowBlur:
      .number
    }
  }

  /// The field of a layer a track of the property changes (``LayerFields``): `frame` for the
  /// box and its parts, `transform` for the matrix and every scalar component composed into it.
  @inlinable
  public var field: LayerFields {
    switch self {
    case .frame, .position, .size: .frame
    case .anchor: .anchor
    case .alpha: .alpha
    case .hidden: .hidden
    case .z: .z
    case .background: .background
    case .cornerRadius: .cornerRadius
    case .clips: .clips
    case .borderWidth, .borderColor: .border
    case .shadowColor, .shadowBlur, .shadowOffset: .shadow
    case .clipTo: .clipTo
    case .transform, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY,
      .translationX, .translationY, .translationZ, .perspective:
      .transform
    }
  }
}
