import TransitionPluginSDK

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `cube-turn` (present, dismiss): the two screens are two faces of a cube that turns a
/// quarter about its vertical axis; the example of an animator written on the Swift SDK.
///
/// The cube's edge is the container's width `w`; its axis runs through the container's centre,
/// `w / 2` behind the screen. Present: the presenting screen (`from`) is the front face and
/// turns away to the left (rotation about y from 0 to −π/2) while the presented screen (`to`),
/// the right face, turns to the front (from π/2 to 0). Dismiss plays that mirrored in time
/// (see `PlayDirection`): the presented screen (`from`) turns back to the right and the
/// presenting one (`to`) returns to the front. Both use easeInEaseOut, so dismiss at
/// progress 1 − p shows what present shows at p.
///
/// Each screen, with its background as a full-container layer, moves as one body
/// (`RigidGroup`): every layer's anchor is the container's centre, and every layer carries the
/// same transform components, the constant `transform` translation(z: w / 2), the turning
/// `rotation.y` and the constant `translation.z` −w / 2, which by the composition order
/// (`LayerAttributes.composedTransform`) turn the layer about the axis behind the screen and
/// cancel exactly at rest. The two faces share the cube's edge at every instant.
///
/// The perspective puts the eye `eyeDistance` widths in front of the screen, so the cube looks
/// the same on every container; its nearest edge comes `(√2 − 1) / 2` widths closer halfway
/// through, well short of the eye. Seen from there, a face turned more than about 78° away
/// shows its back, behind the other face. A renderer draws in paint order, not by depth, so a
/// face is drawn only while it faces the eye (see `facingStart`); it is switched exactly when
/// the eye lies in its plane, where it is drawn as a line, so nothing jumps, and while both
/// faces are drawn they do not overlap. The first frame is the presenting screen alone and the
/// last the presented one (for dismiss, the other way round).
///
/// Never declines a present or a dismiss; refuses a container without area, which has no cube.
public struct CubeTurnAnimator: Animator {
  public let name = "cube-turn"
  public let operations: Set<TransitionOperation> = [.present, .dismiss]
  /// Present and dismiss both last 0.6 s by default.
  public let defaultDuration = 0.6
  /// The eye's distance in front of the screen, in container widths.
  public static let eyeDistance = 2.0
  /// The overall curve of both operations.
  public static let curve = TimingCurve.easeInEaseOut

  /// When, in relative time, the face arriving at the front starts to face the eye; the face
  /// leaving stops facing it at `1 − facingStart`.
  ///
  /// A face turned by φ from the front (the axis `d = w / 2` behind the screen, the eye
  /// `E = eyeDistance · w` in front of it) faces the eye while `(E + d) · cos φ > d`. The
  /// arriving face is at π/2 − φ when the cube has turned by φ, so it faces the eye once
  /// `sin φ > d / (E + d) = 1 / (2 · eyeDistance + 1)`. The turn is linear in relative time,
  /// π/2 over the whole (the overall curve eases it).
  public static let facingStart = asin(1 / (2 * eyeDistance + 1)) / (.pi / 2)

  public init() {}

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    let direction = PlayDirection(context.operation)
    let container = context.container
    guard container.width > 0, container.height > 0 else {
      throw EngineError(
        .outOfRange,
        "context.container must have a positive width and height to turn a cube, got "
          + "[\(container.width), \(container.height)]")
    }
    let (presenting, presented, presentingSide, presentedSide) =
      direction == .forward
      ? (context.from, context.to, "from", "to") : (context.to, context.from, "to", "from")
    var z = 0.0

    /// One screen as a face of the cube, turning by `turn` (written forward).
    func face(_ screen: Screen, side: String, turn: Motion) throws -> [TimelineLayer] {
      var layers: [TimelineLayer] = []
      if let background = screen.background {
        layers.append(
          TimelineLayer(
            filling: container, id: "\(name).\(side)-background", color: background, z: z))
        z += 1
      }
      for layer in screen.layers {
        layers.append(TimelineLayer(layer, z: z))
        z += 1
      }
      var body = RigidGroup(
        layers, pivotAt: Point(x: 0.5, y: 0.5),
        of: Rect(x: 0, y: 0, width: container.width, height: container.height))
      let halfEdge = container.width / 2
      try body.set(.transform, to: .transform(.translation(x: 0, y: 0, z: halfEdge)))
      try body.set(.translationZ, to: .number(-halfEdge))
      try body.set(.perspective, to: .number(-1 / (Self.eyeDistance * container.width)))
      try body.play(turn, direction)
      return body.layers
    }

    // The presented face is painted above the presenting one (while both are drawn they do
    // not overlap).
    var presentingFace = try face(
      presenting, side: presentingSide, turn: Motion(.rotationY, from: 0, to: -.pi / 2))
    var presentedFace = try face(
      presented, side: presentedSide, turn: Motion(.rotationY, from: .pi / 2, to: 0))
    // The face arriving at the front is drawn from `facingStart` on, the one leaving it until
    // `1 − facingStart`: the same switch played backward. Present brings the presented face to
    // the front, dismiss the presenting one.
    for index in presentedFace.indices {
      presentedFace[index].appear(at: Self.facingStart, direction)
    }
    for index in presentingFace.indices {
      presentingFace[index].appear(
        at: Self.facingStart, direction.choose(forward: .backward, backward: .forward))
    }
    let layers = presentingFace + presentedFace
    guard !layers.isEmpty else {
      // Two empty screens: nothing to turn; a clear placeholder keeps the timeline valid.
      return try Timeline(
        duration: duration, curve: Self.curve,
        layers: [TimelineLayer(filling: container, id: "\(name).empty", color: .clear, z: 0)])
    }
    return try Timeline(duration: duration, curve: Self.curve, layers: layers)
  }
}
