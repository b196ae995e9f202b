import Foundation

/// The functions an expression may call.
enum ExpressionFunction: String, CaseIterable, Sendable {
  case min, max, clamp, abs, sqrt, mix, sin, cos, atan2, distance, ratio

  /// The most arguments any function takes.
  static let maximumArity = 16

  /// How many arguments the function takes: a range for `min` and `max`.
  var arity: ClosedRange<Int> {
    switch self {
    case .min, .max: 2...Self.maximumArity
    case .abs, .sqrt, .sin, .cos: 1...1
    case .atan2: 2...2
    case .clamp, .mix, .ratio: 3...3
    case .distance: 4...4
    }
  }

  /// What a call reads as in messages, such as `clamp(value, low, high)`.
  var signature: String {
    switch self {
    case .min, .max: "\(rawValue)(a, b, …)"
    case .abs, .sqrt, .sin, .cos: "\(rawValue)(x)"
    case .atan2: "atan2(y, x)"
    case .clamp: "clamp(value, low, high)"
    case .mix: "mix(a, b, t)"
    case .ratio: "ratio(a, b, otherwise)"
    case .distance: "distance(x1, y1, x2, y2)"
    }
  }

  /// The function's value for `arguments`, whose count is within `arity`.
  /// - Throws: `ExpressionError` for `clamp` with `low > high`.
  func apply(_ arguments: Span<Double>) throws(ExpressionError) -> Double {
    switch self {
    case .min:
      var result = arguments[0]
      for index in 1..<arguments.count { result = Swift.min(result, arguments[index]) }
      return result
    case .max:
      var result = arguments[0]
      for index in 1..<arguments.count { result = Swift.max(result, arguments[index]) }
      return result
    case .clamp:
      guard arguments[1] <= arguments[2] else {
        throw ExpressionError("clamp's low bound is above its high bound")
      }
      return Swift.min(Swift.max(arguments[0], arguments[1]), arguments[2])
    case .abs: return Swift.abs(arguments[0])
    case .sqrt:
      guard arguments[0] >= 0 else { throw ExpressionError("sqrt of a negative number") }
      return arguments[0].squareRoot()
    case .mix: return arguments[0] + (arguments[1] - arguments[0]) * arguments[2]
    case .sin: return Foundation.sin(arguments[0])
    case .cos: return Foundation.cos(arguments[0])
    case .atan2: return Foundation.atan2(arguments[0], arguments[1])
    case .distance:
      let dx = arguments[0] - arguments[2]
      let dy = arguments[1] - arguments[3]
      return (dx * dx + dy * dy).squareRoot()
    case .ratio: return arguments[1] != 0 ? arguments[0] / arguments[1] : arguments[2]
    }
  }
}
