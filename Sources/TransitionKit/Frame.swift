import TransitionJSON

/// The evaluated state of one layer in one frame (docs/protocol.md, "frame" event).
public struct LayerState: Equatable, Sendable {
  public var id: String
  /// The untransformed box `[x, y, w, h]` in container coordinates.
  public var frame: Rect
  /// The transform origin, in unit coordinates of `frame`.
  public var anchor: Point
  /// The full transform in CATransform3D field order, applied about `anchor`.
  public var transform: Transform3D
  /// Opacity, clamped to [0, 1].
  public var alpha: Double
  public var hidden: Bool
  /// Paint order: higher is on top.
  public var z: Double
  public var background: Color?
  /// The radius of the rounded corners of the box, in points.
  public var cornerRadius: Double
  /// Whether the content is clipped to the rounded box.
  public var clips: Bool
  public var border: LayerBorder
  public var shadow: LayerShadow
  /// The id of the layer of the same frame whose rounded box, as it is drawn, clips this one.
  public var clipTo: String?
  public var content: JSONValue?

  public init(
    id: String, frame: Rect, anchor: Point = .center, transform: Transform3D = .identity,
    alpha: Double = 1, hidden: Bool = false, z: Double = 0, background: Color? = nil,
    cornerRadius: Double = 0, clips: Bool = false, border: LayerBorder = .none,
    shadow: LayerShadow = .none, clipTo: String? = nil, content: JSONValue? = nil
  ) {
    self.id = id
    self.frame = frame
    self.anchor = anchor
    self.transform = transform
    self.alpha = alpha
    self.hidden = hidden
    self.z = z
    self.background = background
    self.cornerRadius = cornerRadius
    self.clips = clips
    self.border = border
    self.shadow = shadow
    self.clipTo = clipTo
    self.content = content
  }
}

/// Every layer of a timeline evaluated at one time.
public struct Frame: Equatable, Sendable {
  /// Seconds since the transition began (session time; virtual time for offline rendering).
  public var t: Double
  /// Linear progress in [0, 1].
  public var progress: Double
  /// The layers in timeline order.
  public var layers: [LayerState]

  public init(t: Double = 0, progress: Double = 0, layers: [LayerState] = []) {
    self.t = t
    self.progress = progress
    self.layers = layers
  }

  /// The layer named `id`, if any.
  public func layer(_ id: String) -> LayerState? {
    layers.first { $0.id == id }
  }
}
