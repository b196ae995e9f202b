import TransitionPluginSDK

/// `zoom-present` (present, dismiss): the tapped cell grows into its detail screen and back.
///
/// Present: the detail screen (`to`, with its background as a full-container layer) starts
/// scaled by (origin width / container width, origin height / container height) and moved so
/// that the container maps exactly onto the origin frame (the `selected` layer of `from`), then
/// grows to identity at its own frames. The grid stays underneath, unchanged. Dismiss plays the
/// same motion mirrored in time (see `PlayDirection`) with the origin taken from the `to` screen,
/// and hides the detail at the very end.
///
/// The screen moves as one piece although its layers are separate: each layer of the detail
/// gets the screen's scale and the translation that carries its centre to where the screen's
/// scaling puts it, and scale and translation blend linearly, which is exactly the screen's
/// frame blending from the origin frame to the container.
///
/// Declines a context without a `selected` layer on the grid's side (`from` for present, `to`
/// for dismiss).
public struct ZoomPresentAnimator: Animator {
  public let name = "zoom-present"
  public let operations: Set<TransitionOperation> = [.present, .dismiss]
  /// Present lasts 0.5 s by default.
  public let defaultDuration = 0.5
  /// Dismiss lasts 0.6 s by default.
  public static let dismissDuration = 0.6

  public init() {}

  public func defaultDuration(for operation: TransitionOperation) -> Double {
    operation == .dismiss ? Self.dismissDuration : defaultDuration
  }

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    let direction = PlayDirection(context.operation)
    let (grid, detail, gridSide, detailSide) =
      direction == .forward
      ? (context.from, context.to, "from", "to") : (context.to, context.from, "to", "from")
    guard let origin = grid.layer(context.selected) else { return nil }
    let container = context.container
    guard container.width > 0, container.height > 0 else {
      throw EngineError(
        .outOfRange,
        "context.container must have a positive width and height to zoom from, got [\(container.width), \(container.height)]"
      )
    }

    var layers: [TimelineLayer] = []
    var z = 0.0
    func nextZ() -> Double {
      defer { z += 1 }
      return z
    }
    if let background = grid.background {
      layers.append(
        TimelineLayer(
          filling: container, id: "\(name).\(gridSide)-background", color: background, z: nextZ()))
    }
    for layer in grid.layers {
      layers.append(TimelineLayer(layer, z: nextZ()))
    }

    var detailLayers: [TimelineLayer] = []
    if let background = detail.background {
      detailLayers.append(
        TimelineLayer(
          filling: container, id: "\(name).\(detailSide)-background", color: background, z: nextZ())
      )
    }
    for layer in detail.layers {
      detailLayers.append(TimelineLayer(layer, z: nextZ()))
    }
    // At most 10^6: a nearly empty container cannot blow a frame up past the timeline's bounds.
    let scaleX = min(origin.frame.width / container.width, 1e6)
    let scaleY = min(origin.frame.height / container.height, 1e6)
    for var layer in detailLayers {
      let center = layer.initial.frame.center
      layer.play(Motion(.scaleX, from: scaleX, to: 1), direction)
      layer.play(Motion(.scaleY, from: scaleY, to: 1), direction)
      layer.play(
        Motion(.translationX, from: origin.frame.minX + center.x * scaleX - center.x, to: 0),
        direction)
      layer.play(
        Motion(.translationY, from: origin.frame.minY + center.y * scaleY - center.y, to: 0),
        direction)
      if direction == .backward {
        layer.tracks.append(
          PropertyTrack(
            .hidden, mode: .discrete,
            keyframes: [Keyframe(start: 1, duration: 0, value: .bool(true))])
        )
      }
      layers.append(layer)
    }

    return try Timeline(duration: duration, curve: .easeInEaseOut, layers: layers)
  }
}
