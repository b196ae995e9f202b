import TransitionKit

/// Layers that move as one rigid body about one point of the container: a whole screen
/// turning as the face of a cube, shrinking into a card, tilting away.
///
/// Each layer's transform acts about its own anchor; the group sets every layer's anchor to
/// the same container point, the `pivot` (in each layer's unit coordinates, so it may lie
/// outside [0, 1]). The same transform components then move every layer as one body: a point
/// `p` of any layer is drawn at `pivot + (p − pivot) · T`, with T the layer's composed
/// transform, which is the same for all. A layer without extent on an axis, or too thin on it
/// for the anchor to be a number a timeline accepts, draws nothing and keeps its anchor on
/// that axis (`setTransformOrigin(_:)`).
///
/// Only transform components (`transform`, `rotation.*`, `scale*`, `translation.*`,
/// `perspective`) move the body; `alpha` and `hidden` may be set on every layer too (layers that
/// overlap then show through one another while fading, unlike one flattened picture). The
/// other properties would break the body apart or mean something per layer, and are refused.
public struct RigidGroup: Sendable {
  /// The layers, with their anchors set to the pivot and the motions played so far.
  public private(set) var layers: [TimelineLayer]
  /// The point (container coordinates) that the group's transform acts about.
  public let pivot: Point

  /// The properties a group may animate.
  public static let groupProperties: Set<LayerProperty> = [
    .transform, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY, .translationX,
    .translationY, .translationZ, .perspective, .alpha, .hidden,
  ]

  /// Groups `layers` about `pivot` (container coordinates), setting each layer's anchor.
  public init(_ layers: [TimelineLayer], pivot: Point) {
    self.pivot = pivot
    self.layers = layers.map { layer in
      var layer = layer
      layer.setTransformOrigin(pivot)
      return layer
    }
  }

  /// Groups `layers` about the point at unit coordinates `unit` of `box`, for example the
  /// container's left edge, `(0, 0.5)` of the container's rect.
  public init(_ layers: [TimelineLayer], pivotAt unit: Point, of box: Rect) {
    self.init(
      layers, pivot: Point(x: box.x + unit.x * box.width, y: box.y + unit.y * box.height))
  }

  /// Plays `motion` on every layer in `direction` (mirrored backward, as `TimelineLayer.play`).
  /// - Throws: `EngineError` `invalidValue` for a property outside `groupProperties`.
  public mutating func play(_ motion: Motion, _ direction: PlayDirection) throws(EngineError) {
    try play(asWritten: motion.played(direction))
  }

  /// Plays the motion written for `direction` on every layer, as written.
  /// - Throws: `EngineError` `invalidValue` for a property outside `groupProperties`.
  public mutating func play(_ motion: DirectedMotion, _ direction: PlayDirection)
    throws(EngineError)
  {
    try play(asWritten: motion.motion(for: direction))
  }

  /// Plays `motion` on every layer as written, whatever the direction.
  /// - Throws: `EngineError` `invalidValue` for a property outside `groupProperties`.
  public mutating func play(asWritten motion: Motion) throws(EngineError) {
    try Self.check(motion.property)
    for index in layers.indices { layers[index].play(asWritten: motion) }
  }

  /// Sets a constant value on every layer, such as the `perspective` of the body.
  /// - Throws: `EngineError` `invalidValue` for a property outside `groupProperties`.
  public mutating func set(_ property: LayerProperty, to value: PropertyValue) throws(EngineError) {
    try Self.check(property)
    for index in layers.indices { layers[index].initial.set(property, to: value) }
  }

  private static func check(_ property: LayerProperty) throws(EngineError) {
    guard groupProperties.contains(property) else {
      throw EngineError(
        .invalidValue,
        "a rigid group cannot animate \(property.rawValue): it would move its layers apart")
    }
  }
}

extension TimelineLayer {
  /// Makes the layer's transform act about `point` (container coordinates): sets `anchor` to
  /// that point in the layer's unit coordinates, which may lie outside [0, 1]. The frame does
  /// not move. On an axis where the layer has no extent the anchor is kept, and so it is where
  /// the layer is so thin (a subnormal height, say) that the anchor would not be finite or
  /// would pass `Timeline.maximumValueMagnitude`: such a layer draws nothing on that axis.
  public mutating func setTransformOrigin(_ point: Point) {
    let frame = initial.frame
    if let x = Self.unitCoordinate(point.x, from: frame.x, extent: frame.width) {
      initial.anchor.x = x
    }
    if let y = Self.unitCoordinate(point.y, from: frame.y, extent: frame.height) {
      initial.anchor.y = y
    }
  }

  /// `(value − origin) / extent`, or nil when `extent` is not positive or the result is not
  /// finite or not within `Timeline.maximumValueMagnitude`.
  private static func unitCoordinate(_ value: Double, from origin: Double, extent: Double)
    -> Double?
  {
    guard extent > 0 else { return nil }
    let unit = (value - origin) / extent
    return unit.isFinite && abs(unit) <= Timeline.maximumValueMagnitude ? unit : nil
  }
}
