extension TimelineLayer {
  /// A screen's layer as the app has it: its context frame, background and content, at paint
  /// order `z`, with the context's id unchanged.
  /// - Parameters:
  ///   - layer: the context layer.
  ///   - z: the paint order (higher is on top).
  public init(_ layer: ContextLayer, z: Double) {
    var initial = LayerAttributes(frame: layer.frame)
    initial.z = z
    initial.background = layer.background
    initial.cornerRadius = layer.cornerRadius
    initial.clips = layer.clips
    if layer.border != .none {
      initial.borderWidth = layer.border.width
      initial.borderColor = layer.border.color
    }
    if layer.shadow != .none {
      initial.shadowColor = layer.shadow.color
      initial.shadowBlur = layer.shadow.blur
      initial.shadowOffset = layer.shadow.offset
    }
    initial.clipTo = layer.clipTo
    self.init(id: layer.id, initial: initial, content: layer.content)
  }

  /// A layer that fills the container with `color`: a screen's background, a dimming layer.
  /// - Parameters:
  ///   - id: the layer's id, prefixed with the animator's name so that it cannot clash with a
  ///     context layer.
  ///   - color: the fill.
  ///   - container: the container's size.
  ///   - z: the paint order (higher is on top).
  public init(filling container: Size, id: String, color: Color, z: Double) {
    var initial = LayerAttributes(
      frame: Rect(x: 0, y: 0, width: container.width, height: container.height))
    initial.z = z
    initial.background = color
    self.init(id: id, initial: initial)
  }
}
