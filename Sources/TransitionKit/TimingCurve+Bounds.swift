/// Bounds on the curves a timeline may carry (docs/limits.md, "Input bounds").
///
/// `validated()` accepts any finite Bézier y and any positive spring; a plugin's timeline must
/// also keep its curves within these ranges, so that an eased value stays within a bounded
/// multiple of its keyframe values and a spring settles in a bounded time.
extension TimingCurve {
  /// Largest magnitude of a Bézier control point's y.
  public static let maximumBezierY = 1_000.0
  /// The range of a spring's mass, stiffness and damping.
  public static let springParameterRange = 1e-6...1e6
  /// Largest magnitude of a spring's initial velocity.
  public static let maximumSpringVelocity = 1e6

  /// Throws `outOfRange` naming the parameter (after `prefix`) unless the curve is within the bounds above.
  public func requireBounded(_ prefix: String = "") throws(EngineError) {
    switch self {
    case .linear, .steps: return
    case .cubicBezier(_, let y1, _, let y2):
      let range = -Self.maximumBezierY...Self.maximumBezierY
      try EngineError.require(y1, in: range, "\(prefix)cubicBezier.y1")
      try EngineError.require(y2, in: range, "\(prefix)cubicBezier.y2")
    case .spring(let spring):
      try EngineError.require(spring.mass, in: Self.springParameterRange, "\(prefix)spring.mass")
      try EngineError.require(
        spring.stiffness, in: Self.springParameterRange, "\(prefix)spring.stiffness")
      try EngineError.require(
        spring.damping, in: Self.springParameterRange, "\(prefix)spring.damping")
      try EngineError.require(
        spring.initialVelocity, in: -Self.maximumSpringVelocity...Self.maximumSpringVelocity,
        "\(prefix)spring.velocity")
    }
  }
}
