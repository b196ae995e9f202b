import TransitionKit

/// What the daemon plays with reduced motion for an animator that has no reduced form of its
/// own (docs/protocol.md, "Reduced motion"): every layer of the `from` screen fades out and
/// every layer of the `to` screen fades in, over each screen's background, eased in and out.
enum ReducedMotionCrossfade {
  /// The name its own layers (the screens' backgrounds) start with.
  static let layerPrefix = "reduced-motion"

  /// The cross-fade of `context`'s screens, `duration` seconds long.
  /// - Throws: `EngineError` only for a duration `Timeline` refuses.
  static func timeline(for context: TransitionContext, duration: Double) throws(EngineError)
    -> Timeline
  {
    var layers: [TimelineLayer] = []
    for (side, screen, fadesIn) in [("from", context.from, false), ("to", context.to, true)] {
      if let background = screen.background {
        layers.append(
          TimelineLayer(
            filling: context.container, id: "\(layerPrefix).\(side)-background", color: background,
            z: Double(layers.count)))
      }
      for layer in screen.layers {
        layers.append(TimelineLayer(layer, z: Double(layers.count)))
      }
      let first = layers.count - screen.layers.count - (screen.background == nil ? 0 : 1)
      for index in first..<layers.count {
        layers[index].initial.alpha = fadesIn ? 0 : 1
        layers[index].tracks.append(
          PropertyTrack(
            .alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(fadesIn ? 1 : 0))]))
      }
    }
    if layers.isEmpty {
      // A context with no layers and no backgrounds: one clear layer, as a timeline needs one.
      var initial = LayerAttributes(
        frame: Rect(x: 0, y: 0, width: context.container.width, height: context.container.height))
      initial.alpha = 0
      layers.append(TimelineLayer(id: "\(layerPrefix).empty", initial: initial))
    }
    return try Timeline(duration: duration, curve: .easeInEaseOut, layers: layers)
  }
}
