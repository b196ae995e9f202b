import TransitionJSON

/// The ranges every number of a transition context must lie in (docs/limits.md, "Input
/// bounds").
///
/// They keep all arithmetic an animator does on a context finite: a coordinate or size of at
/// most 10^6 squares to 10^12 and multiplies with another to 10^12, far below the largest
/// Double, so distances, scales and centres of a validated context are always finite.
/// `TransitionContext(json:)` refuses a number outside its range, naming the field.
public enum ContextBounds {
  /// Largest magnitude of a layer coordinate (`frame[0]`, `frame[1]`), in points.
  public static let maximumCoordinate = 1_000_000.0
  /// Largest width or height of the container or a layer, in points; sizes are at least 0.
  public static let maximumSize = 1_000_000.0
  /// The range of a context's `duration` member (the seconds a `begin` asks for); the
  /// daemon's `limits.maxSessionSeconds` (at most 1e9) is the operational limit.
  public static let duration = 0.0...1e9

  /// The range of a coordinate.
  public static var coordinate: ClosedRange<Double> { -maximumCoordinate...maximumCoordinate }
  /// The range of a size.
  public static var size: ClosedRange<Double> { 0...maximumSize }

  /// Throws `outOfRange` naming `path[index]` unless each of `rect`'s numbers is in range:
  /// x and y in `coordinate`, width and height in `size`. `path` is worked out only for an
  /// error (a context is checked on every `begin`).
  public static func check(_ rect: Rect, _ path: @autoclosure () -> String) throws(EngineError) {
    guard
      coordinate.contains(rect.x), coordinate.contains(rect.y), size.contains(rect.width),
      size.contains(rect.height)
    else {
      let path = path()
      try require(rect.x, in: coordinate, "\(path)[0]")
      try require(rect.y, in: coordinate, "\(path)[1]")
      try require(rect.width, in: size, "\(path)[2]")
      try require(rect.height, in: size, "\(path)[3]")
      return
    }
  }

  /// Throws `outOfRange` naming `path[index]` unless both of `size`'s numbers are in `size`.
  public static func check(_ size: Size, _ path: @autoclosure () -> String) throws(EngineError) {
    guard Self.size.contains(size.width), Self.size.contains(size.height) else {
      let path = path()
      try require(size.width, in: Self.size, "\(path)[0]")
      try require(size.height, in: Self.size, "\(path)[1]")
      return
    }
  }

  private static func require(_ value: Double, in range: ClosedRange<Double>, _ path: String)
    throws(EngineError)
  {
    try EngineError.requireFinite(value, path)
    guard range.contains(value) else {
      throw EngineError(
        .outOfRange,
        "\(path) must be in [\(JSONValue.format(range.lowerBound)), "
          + "\(JSONValue.format(range.upperBound))], got \(JSONValue.format(value))")
    }
  }
}
