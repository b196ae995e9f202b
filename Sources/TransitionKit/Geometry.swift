/// A point in container coordinates (points, y down), or a unit-coordinate anchor.
public struct Point: Equatable, Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)
  /// The centre of a layer in unit coordinates: Core Animation's default anchor point.
  public static let center = Point(x: 0.5, y: 0.5)
}

/// A width and height.
public struct Size: Equatable, Hashable, Sendable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned box: `origin` is its top-left corner.
public struct Rect: Equatable, Hashable, Sendable {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// A rect of `size` whose centre is `center`.
  public init(center: Point, size: Size) {
    self.init(
      x: center.x - size.width / 2, y: center.y - size.height / 2,
      width: size.width, height: size.height)
  }

  public static let zero = Rect(origin: .zero, size: .zero)

  public var x: Double { origin.x }
  public var y: Double { origin.y }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var center: Point { Point(x: midX, y: midY) }

  /// The rect moved by `dx`, `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }
}
