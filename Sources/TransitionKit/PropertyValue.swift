/// The value of one layer property at one time.
public enum PropertyValue: Equatable, Sendable {
  case number(Double)
  case point(Point)
  case size(Size)
  case rect(Rect)
  /// A colour; nil means the layer has no background.
  case color(Color?)
  case bool(Bool)
  case transform(Transform3D)
  /// A layer of the same timeline, by its id; nil means none (`clipTo`).
  case layer(String?)

  /// The shape of a value, used to check a keyframe against its property.
  public enum Kind: String, Sendable {
    case number, point, size, rect, color, bool, transform, layer
  }

  public var kind: Kind {
    switch self {
    case .number: .number
    case .point: .point
    case .size: .size
    case .rect: .rect
    case .color: .color
    case .bool: .bool
    case .transform: .transform
    case .layer: .layer
    }
  }

  /// Whether every number in the value is finite.
  public var isFinite: Bool {
    switch self {
    case .number(let value): value.isFinite
    case .bool, .layer: true
    case .transform(let matrix): matrix.largestMagnitude.isFinite
    case .color(nil): true
    default: vector.x.isFinite && vector.y.isFinite && vector.z.isFinite && vector.w.isFinite
    }
  }

  /// Whether every number in the value has a magnitude of at most `bound` (false for NaN).
  public func isWithin(_ bound: Double) -> Bool {
    switch self {
    case .number(let value): abs(value) <= bound
    case .bool, .color(nil), .layer: true
    case .transform(let matrix): matrix.isWithin(bound)
    default:
      abs(vector.x) <= bound && abs(vector.y) <= bound && abs(vector.z) <= bound
        && abs(vector.w) <= bound
    }
  }

  /// The numbers of a number, point, size, rect or colour as a vector (unused lanes 0); used by
  /// the paced and cubic calculation modes. A missing colour reads as clear.
  var vector: SIMD4<Double> {
    switch self {
    case .number(let value): SIMD4(value, 0, 0, 0)
    case .point(let point): SIMD4(point.x, point.y, 0, 0)
    case .size(let size): SIMD4(size.width, size.height, 0, 0)
    case .rect(let rect): SIMD4(rect.x, rect.y, rect.width, rect.height)
    case .color(let color):
      SIMD4(color?.red ?? 0, color?.green ?? 0, color?.blue ?? 0, color?.alpha ?? 0)
    case .bool(let value): SIMD4(value ? 1 : 0, 0, 0, 0)
    case .transform, .layer: SIMD4(0, 0, 0, 0)
    }
  }

  /// A value of the same kind as `self` built from `vector`.
  func withVector(_ v: SIMD4<Double>) -> PropertyValue {
    switch self {
    case .number: .number(v.x)
    case .point: .point(Point(x: v.x, y: v.y))
    case .size: .size(Size(width: v.x, height: v.y))
    case .rect: .rect(Rect(x: v.x, y: v.y, width: v.z, height: v.w))
    case .color: .color(Color(red: v.x, green: v.y, blue: v.z, alpha: v.w))
    case .bool: .bool(v.x >= 0.5)
    case .transform, .layer: self
    }
  }

  /// Blends two values of the same kind: numbers, points, sizes, rects and colours component-wise;
  /// transforms by decomposition (`Transform3D.interpolate`); booleans and layers switch at
  /// the end (`t >= 1`). A missing colour blends as the other colour with alpha 0. Exact at `t == 0`
  /// and `t == 1`. Values of different kinds (which validation rules out) give `to`.
  public static func interpolate(from: PropertyValue, to: PropertyValue, by t: Double)
    -> PropertyValue
  {
    if t == 0 { return from }
    if t == 1 { return to }
    switch (from, to) {
    case (.number(let a), .number(let b)): return .number(lerp(a, b, t))
    case (.point(let a), .point(let b)): return .point(.interpolate(from: a, to: b, by: t))
    case (.size(let a), .size(let b)): return .size(.interpolate(from: a, to: b, by: t))
    case (.rect(let a), .rect(let b)): return .rect(.interpolate(from: a, to: b, by: t))
    case (.color(let a), .color(let b)):
      guard
        let start = a ?? b.map({ Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) }),
        let end = b ?? a.map({ Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) })
      else { return .color(nil) }
      return .color(.interpolate(from: start, to: end, by: t))
    case (.bool(let a), .bool(let b)): return .bool(t >= 1 ? b : a)
    case (.layer(let a), .layer(let b)): return .layer(t >= 1 ? b : a)
    case (.transform(let a), .transform(let b)): return .transform(.interpolate(a, b, t))
    default: return to
    }
  }
}
