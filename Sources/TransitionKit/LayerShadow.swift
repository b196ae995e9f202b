/// A layer's shadow (the frame's `shadow`): CSS `box-shadow: dx dy blur color`, outer, with no
/// spread, following the rounded box and not drawn under it. `blur` is CSS's blur radius
/// (a Gaussian of σ = blur / 2; CALayer's `shadowRadius` r is about blur 2r). A colour of
/// alpha 0 is no shadow.
public struct LayerShadow: Equatable, Sendable {
  public var color: Color
  /// Points, not negative.
  public var blur: Double
  /// `[dx, dy]`, points.
  public var offset: Point

  public init(color: Color, blur: Double, offset: Point) {
    self.color = color
    self.blur = blur
    self.offset = offset
  }

  /// No shadow: what a frame leaves out.
  public static let none = LayerShadow(color: .clear, blur: 0, offset: Point(x: 0, y: 0))

  /// The shadow a layer casts with these parts (a nil colour: none): ``none`` when the colour
  /// is missing or its alpha is 0 as a frame writes it (8 bits), so that every shadow that
  /// draws nothing is the same value, left out of frames; a negative blur counts as 0.
  @inlinable
  public init(evaluatedColor color: Color?, blur: Double, offset: Point) {
    guard let color, color.bytes.alpha > 0 else {
      self = .none
      return
    }
    self = LayerShadow(color: color, blur: max(blur, 0), offset: offset)
  }
}
