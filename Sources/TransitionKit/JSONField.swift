import TransitionJSON

/// A JSON value with its path whose errors are `EngineError`s: what the engine's decoders
/// (contexts, timelines) read.
public typealias JSONField = JSONPathField<EngineError>

extension EngineError: JSONFieldFailure {
  /// The engine's code for a problem found by a `JSONPathField`.
  public init(problem: JSONFieldProblem, message: String) {
    switch problem {
    case .missingField: self.init(.missingField, message)
    case .invalidValue: self.init(.invalidValue, message)
    case .nonFinite: self.init(.nonFinite, message)
    }
  }

  /// Text that is not JSON, as the engine reports it (`invalid_value`).
  public init(_ error: JSONSyntaxError) {
    self.init(.invalidValue, error.message)
  }
}

/// The engine's geometry and colour types read from JSON.
extension JSONPathField where Failure == EngineError {
  /// `[x, y, w, h]`; the size must not be negative.
  public func rect() throws(EngineError) -> Rect {
    let n = try numbers(count: 4)
    guard n[2] >= 0, n[3] >= 0 else {
      throw EngineError(.outOfRange, "\(subject) must not have a negative width or height")
    }
    return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
  }

  /// A finite number that is not negative: a radius, a width, a blur, in points.
  public func length() throws(EngineError) -> Double {
    let value = try number()
    guard value >= 0 else {
      throw EngineError(
        .outOfRange, "\(subject) must not be negative, got \(JSONValue.format(value))")
    }
    return value
  }

  /// `[x, y]`.
  public func point() throws(EngineError) -> Point {
    let n = try numbers(count: 2)
    return Point(x: n[0], y: n[1])
  }

  /// `[w, h]`; neither may be negative.
  public func size() throws(EngineError) -> Size {
    let n = try numbers(count: 2)
    guard n[0] >= 0, n[1] >= 0 else {
      throw EngineError(.outOfRange, "\(subject) must not be negative")
    }
    return Size(width: n[0], height: n[1])
  }

  /// `"#rrggbbaa"` or `"#rrggbb"`.
  public func color() throws(EngineError) -> Color {
    do {
      return try Color(hex: try string())
    } catch {
      throw EngineError(error.code, "\(path): \(error.message)")
    }
  }

  /// 16 numbers in CATransform3D field order.
  public func transform() throws(EngineError) -> Transform3D {
    let n = try numbers(count: 16)
    do {
      return try Transform3D(elements: n)
    } catch {
      throw EngineError(error.code, "\(path): \(error.message)")
    }
  }
}
