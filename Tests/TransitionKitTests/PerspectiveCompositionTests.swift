import Testing
import TransitionKit

/// `perspective` is composed into a layer's transform only when it can change what is drawn:
/// a resting layer with a constant perspective has the identity transform, and a layer that
/// stays in its plane draws the same with or without it.
@Suite struct PerspectiveCompositionTests {
  static let box = Rect(x: 20, y: 100, width: 170, height: 120)

  /// The four corners of `box` as drawn with `transform` about `anchor` (row vectors, with the
  /// perspective divide), as a renderer draws them.
  static func corners(_ transform: Transform3D, anchor: Point) -> [Double] {
    let ax = box.x + anchor.x * box.width
    let ay = box.y + anchor.y * box.height
    let points = [
      (box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY),
    ]
    return points.flatMap { x, y in
      let p = transform.apply(x: x - ax, y: y - ay)
      return [p.x + ax, p.y + ay]
    }
  }

  /// The transform with the perspective always concatenated last, as before the rule.
  static func withPerspective(_ attributes: LayerAttributes) -> Transform3D {
    var flat = attributes
    flat.perspective = 0
    return flat.composedTransform.concatenating(.perspective(m34: attributes.perspective))
  }

  @Test func constantPerspectiveLeavesARestingLayerAtTheIdentity() throws {
    var attributes = LayerAttributes(frame: Self.box)
    attributes.anchor = Point(x: 0, y: 0.5)
    attributes.perspective = -1.0 / 500
    #expect(attributes.composedTransform == .identity)
    let layer = TimelineLayer(
      id: "cover", initial: attributes,
      tracks: [
        PropertyTrack(
          .rotationY, keyframes: [Keyframe(start: 0, duration: 1, value: .number(-.pi))]),
        PropertyTrack(.rotationZ, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))]),
      ])
    let timeline = try Timeline(duration: 1, layers: [layer])
    let evaluator = TimelineEvaluator(timeline)
    #expect(evaluator.frame(progress: 0).layers[0].transform == .identity)
    // Mid-turn the layer leaves its plane and the perspective is there.
    let middle = evaluator.frame(progress: 0.25).layers[0].transform
    #expect(middle.m34 != 0)
  }

  @Test(arguments: [
    ("scale", LayerProperty.scale, 0.6), ("rotation.z", .rotationZ, 0.8),
    ("translation.x", .translationX, 35.0),
  ])
  func aLayerThatStaysInItsPlaneDrawsTheSameWithoutIt(
    _ name: String, _ property: LayerProperty, _ value: Double
  ) {
    var attributes = LayerAttributes(frame: Self.box)
    attributes.anchor = Point(x: 0.2, y: 0.7)
    attributes.perspective = -1.0 / 300
    attributes.set(property, to: .number(value))
    let composed = attributes.composedTransform
    #expect(composed.m34 == 0, "\(name): left out")
    let full = Self.withPerspective(attributes)
    #expect(full != composed, "\(name): the matrices differ, the drawing does not")
    for (a, b) in zip(
      Self.corners(composed, anchor: attributes.anchor),
      Self.corners(full, anchor: attributes.anchor))
    {
      #expect(abs(a - b) <= 1e-9, "\(name): a corner moved")
    }
  }

  @Test(arguments: [
    ("rotation.x", LayerProperty.rotationX, 0.5), ("rotation.y", .rotationY, -1.0),
    ("translation.z", .translationZ, 40.0),
  ])
  func aLayerThatLeavesItsPlaneKeepsIt(_ name: String, _ property: LayerProperty, _ value: Double) {
    var attributes = LayerAttributes(frame: Self.box)
    attributes.anchor = Point(x: 0, y: 0.5)
    attributes.perspective = -1.0 / 500
    attributes.set(property, to: .number(value))
    #expect(attributes.composedTransform == Self.withPerspective(attributes), "\(name)")
    #expect(attributes.composedTransform.m34 != 0 || attributes.composedTransform.m14 != 0)
  }

  @Test func aMatrixThatLeavesThePlaneKeepsIt() {
    var attributes = LayerAttributes(frame: Self.box)
    attributes.transform = .rotation(angle: 0.4, x: 1, y: 1, z: 0)
    attributes.perspective = -1.0 / 500
    #expect(attributes.composedTransform == Self.withPerspective(attributes))
  }
}
