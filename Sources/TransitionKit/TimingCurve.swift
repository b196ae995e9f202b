/// Where the jumps of a `TimingCurve.steps` curve fall, as CSS `steps(n, jump-start | jump-end)`.
public enum StepPosition: String, Sendable, CaseIterable {
  /// The first jump happens as soon as progress leaves 0 (`jump-start`).
  case start
  /// The last jump happens when progress reaches 1 (`jump-end`, the CSS default).
  case end
}

/// Maps linear progress in [0, 1] to eased progress, as `CAMediaTimingFunction` does.
///
/// Every curve starts at exactly 0 and ends at exactly 1 (bit for bit); in between a Bézier
/// curve may overshoot either end. Evaluation never allocates and never traps, even for a curve
/// that `validated()` would reject.
public enum TimingCurve: Equatable, Hashable, Sendable {
  /// The identity: eased progress equals progress.
  case linear
  /// A cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), as
  /// `CAMediaTimingFunction(controlPoints:)` and CSS `cubic-bezier()`. x1 and x2 lie in [0, 1];
  /// y1 and y2 may be any finite value, which lets the curve overshoot.
  case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
  /// `count` equal discrete jumps (CSS `steps()`); `count` is at least 1.
  case steps(count: Int, position: StepPosition)
  /// A spring stretched over [0, 1]: progress p maps to `spring.value(at: p * settlingDuration)`
  /// and p = 1 maps to exactly 1.
  case spring(Spring)

  /// Starts slowly, then speeds up: control points (0.42, 0, 1, 1).
  public static let easeIn = TimingCurve.cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
  /// Starts quickly, then slows down: control points (0, 0, 0.58, 1).
  public static let easeOut = TimingCurve.cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
  /// Slow at both ends: control points (0.42, 0, 0.58, 1), UIKit's default for `UIView.animate`.
  public static let easeInEaseOut = TimingCurve.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
  /// Core Animation's `kCAMediaTimingFunctionDefault`: control points (0.25, 0.1, 0.25, 1).
  public static let systemDefault = TimingCurve.cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

  /// The preset names as spelled on the wire, in a stable order.
  public static let presetNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

  /// Creates a named preset.
  ///
  /// - Parameter named: one of `presetNames`: "linear", "easeIn", "easeOut", "easeInEaseOut"
  ///   or "default" (case-sensitive).
  /// - Throws: `EngineError` with code `invalidValue` for any other name.
  public init(named name: String) throws(EngineError) {
    switch name {
    case "linear": self = .linear
    case "easeIn": self = .easeIn
    case "easeOut": self = .easeOut
    case "easeInEaseOut": self = .easeInEaseOut
    case "default": self = .systemDefault
    default:
      let expected = Self.presetNames.map { "\"\($0)\"" }.joined(separator: ", ")
      throw EngineError(
        .invalidValue, "unknown timing curve name \"\(name)\"; expected one of \(expected)")
    }
  }

  /// The wire name of this curve when it equals a preset exactly, else nil.
  ///
  /// `TimingCurve(named: curve.name!)` gives back `curve` whenever `name` is not nil.
  public var name: String? {
    switch self {
    case .linear: return "linear"
    case .easeIn: return "easeIn"
    case .easeOut: return "easeOut"
    case .easeInEaseOut: return "easeInEaseOut"
    case .systemDefault: return "default"
    default: return nil
    }
  }

  /// Returns the curve unchanged when every parameter is acceptable.
  ///
  /// - Throws: `EngineError` with code `nonFinite` for a NaN or infinite parameter, and
  ///   `outOfRange` for a Bézier x1 or x2 outside [0, 1], a step count below 1, or a spring
  ///   whose mass, stiffness or damping is not positive. The message names the parameter,
  ///   for example `cubicBezier.x1` or `spring.mass`.
  public func validated() throws(EngineError) -> TimingCurve {
    switch self {
    case .linear:
      break
    case .cubicBezier(let x1, let y1, let x2, let y2):
      try EngineError.require(x1, in: 0...1, "cubicBezier.x1")
      try EngineError.requireFinite(y1, "cubicBezier.y1")
      try EngineError.require(x2, in: 0...1, "cubicBezier.x2")
      try EngineError.requireFinite(y2, "cubicBezier.y2")
    case .steps(let count, _):
      guard count >= 1 else {
        throw EngineError(.outOfRange, "steps.count must be at least 1, got \(count)")
      }
    case .spring(let spring):
      try Spring.validate(
        mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
        initialVelocity: spring.initialVelocity, path: "spring.")
    }
    return self
  }

  /// The eased value at `progress`.
  ///
  /// `progress` is clamped to [0, 1] (NaN counts as 0). The result is exactly 0 at progress 0
  /// and exactly 1 at progress 1 for every curve; a Bézier curve is within 1e-6 (in practice
  /// about 1e-12) of its exact value elsewhere.
  public func value(at progress: Double) -> Double {
    guard progress > 0 else { return 0 }
    guard progress < 1 else { return 1 }
    switch self {
    case .linear:
      return progress
    case .cubicBezier(let x1, let y1, let x2, let y2):
      return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).value(at: progress)
    case .steps(let count, let position):
      return Self.stepValue(count: count, position: position, progress: progress)
    case .spring(let spring):
      // An invalid spring settles at once (duration 0) and jumps straight to 1.
      let duration = spring.settlingDuration
      return duration > 0 ? spring.value(at: progress * duration) : 1
    }
  }

  /// The derivative d value / d progress at `progress`, for carrying velocity across curves.
  ///
  /// `progress` is clamped to [0, 1] (NaN counts as 0), so the slope at either end is the
  /// one-sided derivative there. Steps have slope 0. A Bézier curve with a vertical tangent
  /// reports a large finite slope (its secant over a 1e-6 window) rather than infinity.
  public func slope(at progress: Double) -> Double {
    let clamped = progress > 0 ? min(progress, 1) : 0
    switch self {
    case .linear:
      return 1
    case .cubicBezier(let x1, let y1, let x2, let y2):
      return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).slope(at: clamped)
    case .steps:
      return 0
    case .spring(let spring):
      let duration = spring.settlingDuration
      return duration * spring.velocity(at: clamped * duration)
    }
  }

  /// The value of `steps(count, position)` for progress in the open interval (0, 1).
  ///
  /// A count below 1 (which `validated()` rejects) behaves as 1.
  static func stepValue(count: Int, position: StepPosition, progress: Double) -> Double {
    let steps = Double(max(count, 1))
    // Jumps completed so far; never the final one before progress reaches 1.
    let completed = min((progress * steps).rounded(.down), steps - 1)
    switch position {
    case .start: return (completed + 1) / steps
    case .end: return completed / steps
    }
  }
}
