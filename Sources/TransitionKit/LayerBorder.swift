/// A layer's border (the frame's `border`): a line `width` points wide drawn inside the edge of
/// the rounded box (CSS `box-sizing: border-box`, CALayer's `borderWidth`). A width of 0 is no
/// border, whatever the colour.
public struct LayerBorder: Equatable, Sendable {
  /// Points, not negative.
  public var width: Double
  public var color: Color

  public init(width: Double, color: Color) {
    self.width = width
    self.color = color
  }

  /// No border: what a frame leaves out.
  public static let none = LayerBorder(width: 0, color: .clear)

  /// The border a layer draws with `width` and `color` (nil: clear): ``none`` for a width of
  /// 0 or less, so that every border that draws nothing is the same value.
  @inlinable
  public init(evaluatedWidth width: Double, color: Color?) {
    self = width > 0 ? LayerBorder(width: width, color: color ?? .clear) : .none
  }
}
