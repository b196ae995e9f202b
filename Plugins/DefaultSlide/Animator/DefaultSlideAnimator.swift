import TransitionPluginSDK

/// `default-slide` (push, pop, present, dismiss): UIKit's default transitions, and the
/// animator the daemon falls back to when another declines. It never declines.
///
/// Push: the incoming screen slides in from the right edge to x = 0 while the outgoing one
/// moves left by 30% of the container's width under the `default-slide.dim` layer (black) whose
/// alpha goes from 0 to 0.1. Pop plays that mirrored in time (see `PlayDirection`): the top
/// screen slides out to the right, the one below comes back from −30% as the dimming clears.
/// Present: the incoming screen slides up from the bottom edge over the unchanged presenting
/// screen; dismiss slides it back down. Screen backgrounds become full-container layers that
/// move with their screens.
///
/// Timing: 0.35 s for push and pop, 0.5 s for present and dismiss, both decelerating on
/// Core Animation's easeOut curve (control points 0, 0, 0.58, 1). Custom transitions that
/// imitate the system's navigation slide commonly use 0.35 s; the modal slide covers the full
/// height and is imitated at the upper end of the 0.35–0.5 s range.
public struct DefaultSlideAnimator: Animator {
  public let name = "default-slide"
  public let operations: Set<TransitionOperation> = [.push, .pop, .present, .dismiss]
  /// Push and pop last 0.35 s by default.
  public let defaultDuration = 0.35
  /// Present and dismiss last 0.5 s by default.
  public static let modalDuration = 0.5
  /// How far the screen underneath moves left during a push, as a fraction of the width.
  public static let parallax = 0.3
  /// The dimming layer's alpha over the screen underneath at the end of a push.
  public static let dimAlpha = 0.1

  public init() {}

  public func defaultDuration(for operation: TransitionOperation) -> Double {
    switch operation {
    case .push, .pop: defaultDuration
    case .present, .dismiss: Self.modalDuration
    }
  }

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    let direction = PlayDirection(context.operation)
    let (below, above, belowSide, aboveSide) =
      direction == .forward
      ? (context.from, context.to, "from", "to") : (context.to, context.from, "to", "from")
    let width = context.container.width
    let height = context.container.height
    let horizontal = context.operation == .push || context.operation == .pop

    var layers: [TimelineLayer] = []
    var z = 0.0
    func add(_ screen: Screen, side: String, motion: Motion?) {
      var screenLayers: [TimelineLayer] = []
      if let background = screen.background {
        screenLayers.append(
          TimelineLayer(
            filling: context.container, id: "\(name).\(side)-background", color: background, z: z))
        z += 1
      }
      for layer in screen.layers {
        screenLayers.append(TimelineLayer(layer, z: z))
        z += 1
      }
      for var layer in screenLayers {
        if let motion { layer.play(motion, direction) }
        layers.append(layer)
      }
    }

    if horizontal {
      add(
        below, side: belowSide, motion: Motion(.translationX, from: 0, to: -Self.parallax * width))
      var dim = TimelineLayer(filling: context.container, id: "\(name).dim", color: .black, z: z)
      z += 1
      dim.play(Motion(.alpha, from: 0, to: Self.dimAlpha), direction)
      layers.append(dim)
      add(above, side: aboveSide, motion: Motion(.translationX, from: width, to: 0))
    } else {
      add(below, side: belowSide, motion: nil)
      add(above, side: aboveSide, motion: Motion(.translationY, from: height, to: 0))
    }
    guard !layers.isEmpty else {
      // Two empty screens: the dimming-free modal case has nothing to draw, so keep a clear
      // placeholder that the timeline's validation accepts.
      return try Timeline(
        duration: duration, curve: .easeOut,
        layers: [TimelineLayer(filling: context.container, id: "\(name).dim", color: .clear, z: 0)])
    }
    return try Timeline(duration: duration, curve: .easeOut, layers: layers)
  }
}
