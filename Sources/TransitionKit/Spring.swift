import Foundation

/// A damped spring that carries a value from 0 to 1, evaluated in closed form.
///
/// The motion solves m x″ + c x′ + k (x − 1) = 0 with x(0) = 0 and x′(0) = `initialVelocity`,
/// where m is `mass`, k `stiffness` and c `damping`. Under-, critically and over-damped springs
/// are all exact; nothing is integrated step by step, so any time can be evaluated directly.
///
/// The solution's constants and `settlingDuration` are computed when a parameter changes, so
/// `value(at:)` and `velocity(at:)` cost a few exponentials and never allocate. A spring whose
/// parameters `validated()` would reject (possible only by assigning the properties directly)
/// jumps to 1 at once: its value is 1 for every time after 0 and its settling duration is 0.
public struct Spring: Equatable, Hashable, Sendable {
  /// The distance from the target, as a fraction of the whole travel, that counts as settled:
  /// 0.001.
  public static let settlingThreshold = 0.001

  /// The moving mass; positive.
  public var mass: Double { didSet { refreshMotion() } }
  /// The spring constant; positive.
  public var stiffness: Double { didSet { refreshMotion() } }
  /// The damping coefficient; positive.
  public var damping: Double { didSet { refreshMotion() } }
  /// The velocity at time 0, as a fraction of the distance to travel per second (as UIKit's
  /// `initialSpringVelocity` and SwiftUI's `initialVelocity`); any finite value.
  public var initialVelocity: Double { didSet { refreshMotion() } }

  /// The closed-form solution for the parameters above.
  private var motion: SpringMotion

  /// Creates a spring from its physical parameters.
  ///
  /// - Parameters:
  ///   - mass: the moving mass; positive and finite.
  ///   - stiffness: the spring constant; positive and finite.
  ///   - damping: the damping coefficient; positive and finite.
  ///   - initialVelocity: the starting velocity in travel fractions per second; finite.
  /// - Throws: `EngineError` with code `nonFinite` for a NaN or infinite parameter and
  ///   `outOfRange` for a mass, stiffness or damping that is zero or negative.
  public init(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) throws(EngineError) {
    try Self.validate(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
      path: "")
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.initialVelocity = initialVelocity
    motion = SpringMotion(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
  }

  /// Creates a spring the way SwiftUI's `Spring(duration:bounce:)` does.
  ///
  /// Mass is 1, stiffness (2π / `duration`)² and damping 4π ζ / `duration` for the damping
  /// ratio ζ = 1 − `bounce` when `bounce` ≥ 0 and ζ = 1 / (1 + `bounce`) when it is negative
  /// (SwiftUI's mapping; Flutter's `SpringDescription.withDurationAndBounce` follows it).
  ///
  /// - Parameters:
  ///   - duration: the perceptual duration (SwiftUI's `response`) in seconds; positive.
  ///   - bounce: 0 for no overshoot, towards 1 for more bounce, below 0 for an over-damped
  ///     spring; in the open interval (−1, 1).
  ///   - initialVelocity: the starting velocity in travel fractions per second; finite.
  /// - Throws: `EngineError` with code `nonFinite` or `outOfRange` naming the parameter.
  public init(duration: Double, bounce: Double = 0, initialVelocity: Double = 0) throws(EngineError)
  {
    try Self.requirePositive(duration, "duration")
    try EngineError.requireFinite(bounce, "bounce")
    guard bounce > -1, bounce < 1 else {
      throw EngineError(.outOfRange, "bounce must be in (-1.0, 1.0), got \(bounce)")
    }
    let angularFrequency = 2 * Double.pi / duration
    let dampingRatio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    try self.init(
      mass: 1, stiffness: angularFrequency * angularFrequency,
      damping: 2 * dampingRatio * angularFrequency, initialVelocity: initialVelocity)
  }

  /// Creates a spring from a damping ratio and a response, as SwiftUI's
  /// `spring(response:dampingFraction:)` does.
  ///
  /// Mass is 1, stiffness (2π / `response`)² and damping 4π `dampingRatio` / `response`.
  ///
  /// - Parameters:
  ///   - dampingRatio: below 1 bounces, 1 is critically damped, above 1 is over-damped;
  ///     positive.
  ///   - response: the period of the undamped oscillation in seconds; positive.
  ///   - initialVelocity: the starting velocity in travel fractions per second; finite.
  /// - Throws: `EngineError` with code `nonFinite` or `outOfRange` naming the parameter.
  public init(dampingRatio: Double, response: Double, initialVelocity: Double = 0)
    throws(EngineError)
  {
    try Self.requirePositive(dampingRatio, "dampingRatio")
    try Self.requirePositive(response, "response")
    let angularFrequency = 2 * Double.pi / response
    try self.init(
      mass: 1, stiffness: angularFrequency * angularFrequency,
      damping: 4 * Double.pi * dampingRatio / response, initialVelocity: initialVelocity)
  }

  /// damping / (2 √(stiffness × mass)): below 1 the spring overshoots, 1 is critical damping.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// The time in seconds after which |1 − value| stays below `settlingThreshold` (0.001).
  ///
  /// This is the last time at which |1 − value| equals the threshold, found on the closed form:
  /// the extremes of an under-damped spring shrink geometrically, so the last one above the
  /// threshold is known directly, and the crossing after it is bisected to about 1e-15
  /// relative precision.
  public var settlingDuration: Double { motion.settlingDuration }

  /// The fraction of the travel covered at `time` seconds: 0 at time 0, tending to 1.
  ///
  /// Times at or before 0 (and NaN) give exactly 0; an infinite time gives 1.
  public func value(at time: Double) -> Double { motion.value(at: time) }

  /// The velocity d value / d time at `time` seconds, in travel fractions per second.
  ///
  /// `initialVelocity` at time 0, 0 before it (the spring has not started) and at an infinite
  /// time.
  public func velocity(at time: Double) -> Double { motion.velocity(at: time) }

  /// Returns the spring unchanged when its parameters are acceptable.
  ///
  /// - Throws: `EngineError` as `init(mass:stiffness:damping:initialVelocity:)` does.
  public func validated() throws(EngineError) -> Spring {
    try Self.validate(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
      path: "")
    return self
  }

  public static func == (lhs: Spring, rhs: Spring) -> Bool {
    lhs.mass == rhs.mass && lhs.stiffness == rhs.stiffness && lhs.damping == rhs.damping
      && lhs.initialVelocity == rhs.initialVelocity
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(mass)
    hasher.combine(stiffness)
    hasher.combine(damping)
    hasher.combine(initialVelocity)
  }

  /// Checks spring parameters; `path` prefixes the parameter names in messages (e.g. "spring.").
  static func validate(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Double, path: String
  ) throws(EngineError) {
    try requirePositive(mass, path + "mass")
    try requirePositive(stiffness, path + "stiffness")
    try requirePositive(damping, path + "damping")
    try EngineError.requireFinite(initialVelocity, path + "initialVelocity")
  }

  private static func requirePositive(_ value: Double, _ name: String) throws(EngineError) {
    try EngineError.requireFinite(value, name)
    guard value > 0 else {
      throw EngineError(.outOfRange, "\(name) must be greater than 0, got \(value)")
    }
  }

  private mutating func refreshMotion() {
    motion = SpringMotion(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
  }
}

/// The closed-form solution of a spring from 0 to 1 and its settling duration.
///
/// With α = c / 2m (the decay rate) and ω₀ = √(k / m), the offset from the target is
/// x(t) − 1 = −C(t) + (v₀ − α) S(t) and the velocity is v₀ C(t) + (ω₀² − α v₀) S(t), where
/// - under-damped (ω = ω₀ √(1 − ζ²)): C = e^(−αt) cos ωt, S = e^(−αt) sin(ωt) / ω;
/// - critically damped: C = e^(−αt), S = t e^(−αt);
/// - over-damped (rates r₁ > r₂, δ = r₁ − r₂): C = (e^(r₁t) + e^(r₂t)) / 2,
///   S = (e^(r₁t) − e^(r₂t)) / δ.
/// All three forms stay accurate as ζ approaches 1 from either side.
private struct SpringMotion: Sendable {
  private enum Regime: Sendable {
    case underdamped(frequency: Double)
    case critical
    case overdamped(slowRate: Double, fastRate: Double, rateGap: Double)
    /// Parameters no spring can have: the motion is an immediate jump to 1.
    case invalid
  }

  private let regime: Regime
  /// α = c / 2m.
  private let decay: Double
  /// ω₀² = k / m.
  private let naturalFrequencySquared: Double
  private let initialVelocity: Double
  private(set) var settlingDuration: Double = 0

  init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
    let naturalFrequency = (stiffness / mass).squareRoot()
    decay = damping / (2 * mass)
    naturalFrequencySquared = stiffness / mass
    self.initialVelocity = initialVelocity
    let valid =
      [mass, stiffness, damping].allSatisfy { $0 > 0 && $0.isFinite } && initialVelocity.isFinite
      && naturalFrequency > 0 && naturalFrequency.isFinite && decay > 0 && decay.isFinite
    guard valid else {
      regime = .invalid
      return
    }
    let ratio = decay / naturalFrequency
    if ratio < 1 {
      regime = .underdamped(frequency: naturalFrequency * ((1 - ratio) * (1 + ratio)).squareRoot())
    } else if ratio == 1 {
      regime = .critical
    } else {
      let root = ((ratio - 1) * (ratio + 1)).squareRoot()
      regime = .overdamped(
        slowRate: -naturalFrequency / (ratio + root), fastRate: -naturalFrequency * (ratio + root),
        rateGap: 2 * naturalFrequency * root)
    }
    settlingDuration = findSettlingDuration()
  }

  func value(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    guard time.isFinite, case (let c, let s)? = terms(at: time) else { return 1 }
    return 1 - c + (initialVelocity - decay) * s
  }

  func velocity(at time: Double) -> Double {
    guard time >= 0, time.isFinite, case (let c, let s)? = terms(at: time) else { return 0 }
    return initialVelocity * c + (naturalFrequencySquared - decay * initialVelocity) * s
  }

  /// C(t) and S(t) of the type's description; nil for an invalid spring.
  private func terms(at t: Double) -> (c: Double, s: Double)? {
    switch regime {
    case .underdamped(let frequency):
      let envelope = exp(-decay * t)
      let angle = frequency * t
      return (envelope * cos(angle), envelope * sin(angle) / frequency)
    case .critical:
      let envelope = exp(-decay * t)
      return (envelope, t * envelope)
    case .overdamped(let slowRate, let fastRate, let rateGap):
      let slow = exp(slowRate * t)
      let fast = exp(fastRate * t)
      // e^(r₂t) (e^(δt) − 1) avoids cancelling digits while δt is small.
      let difference = rateGap * t < 1 ? fast * expm1(rateGap * t) : slow - fast
      return (0.5 * (slow + fast), difference / rateGap)
    case .invalid:
      return nil
    }
  }

  private func offset(at time: Double) -> Double { value(at: time) - 1 }

  private func exceedsThreshold(at time: Double) -> Bool {
    abs(offset(at: time)) >= Spring.settlingThreshold
  }

  /// The last time at which |offset| reaches the threshold.
  ///
  /// The offset is monotonic between consecutive zeros of the velocity, so the search first
  /// finds the last such stretch that starts above the threshold, then bisects it.
  private func findSettlingDuration() -> Double {
    let threshold = Spring.settlingThreshold
    let velocityFactor = naturalFrequencySquared - decay * initialVelocity
    switch regime {
    case .invalid:
      return 0
    case .underdamped(let frequency):
      // velocity ∝ e^(−αt) cos(ωt − ψ): its zeros are half a period apart and the offset's
      // extremes there shrink by e^(−απ/ω) each time.
      let phase = atan2(velocityFactor / frequency, initialVelocity)
      var firstAngle = phase + Double.pi / 2
      if firstAngle <= 0 { firstAngle += Double.pi }
      if firstAngle > Double.pi { firstAngle -= Double.pi }
      let halfPeriod = Double.pi / frequency
      let firstExtreme = firstAngle / frequency
      let firstAmplitude = abs(offset(at: firstExtreme))
      guard firstAmplitude >= threshold else {
        return bisectCrossing(from: 0, to: firstExtreme)
      }
      let shrinkPerHalfPeriod = decay * halfPeriod
      var lastAbove =
        firstExtreme + (log(firstAmplitude / threshold) / shrinkPerHalfPeriod).rounded(.down)
        * halfPeriod
      // Correct for rounding in the logarithm.
      var corrections = 0
      while corrections < 4, exceedsThreshold(at: lastAbove + halfPeriod) {
        lastAbove += halfPeriod
        corrections += 1
      }
      while corrections < 8, lastAbove > firstExtreme, !exceedsThreshold(at: lastAbove) {
        lastAbove -= halfPeriod
        corrections += 1
      }
      return bisectCrossing(from: lastAbove, to: lastAbove + halfPeriod)
    case .critical, .overdamped:
      // The velocity has at most one zero after 0.
      let turn = velocityZero(velocityFactor: velocityFactor)
      if let turn, !exceedsThreshold(at: turn) {
        return bisectCrossing(from: 0, to: turn)
      }
      let start = turn ?? 0
      // Beyond `start` |offset| only shrinks: widen the bracket until it is below threshold.
      let slowestRate: Double
      if case .overdamped(let slowRate, _, _) = regime {
        slowestRate = -slowRate
      } else {
        slowestRate = decay
      }
      var width = 1 / slowestRate
      var doublings = 0
      while doublings < 2100, exceedsThreshold(at: start + width) {
        width *= 2
        doublings += 1
      }
      return bisectCrossing(from: start, to: start + width)
    }
  }

  /// The time after 0 at which a critically or over-damped spring's velocity is zero, if any.
  private func velocityZero(velocityFactor: Double) -> Double? {
    let time: Double
    switch regime {
    case .critical:
      // velocity = e^(−αt) (v₀ + K t)
      time = -initialVelocity / velocityFactor
    case .overdamped(_, _, let rateGap):
      // velocity ∝ v₀ (1 + w) / 2 + K (1 − w) / δ with w = e^(−δt), zero at
      // w = 1 + v₀δ / (K − v₀δ / 2).
      let halfVelocityGap = initialVelocity * rateGap / 2
      time = -log1p(2 * halfVelocityGap / (velocityFactor - halfVelocityGap)) / rateGap
    default:
      return nil
    }
    return time > 0 && time.isFinite ? time : nil
  }

  /// Bisects [low, high], where the threshold is reached at `low` and not after `high`, for
  /// the last time it is reached; returns the upper end of the final bracket.
  private func bisectCrossing(from low: Double, to high: Double) -> Double {
    var low = low
    var high = high
    for _ in 0..<200 {
      let middle = 0.5 * (low + high)
      guard middle > low, middle < high else { break }
      if exceedsThreshold(at: middle) {
        low = middle
      } else {
        high = middle
      }
    }
    return high
  }
}
