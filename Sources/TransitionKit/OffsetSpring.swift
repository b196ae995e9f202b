import Foundation

/// A 2D offset that springs back to zero: how a held layer's distance from where the timeline
/// draws it animates away after the finger lets go (``GestureFollower``).
///
/// The motion is a critically damped spring, `r(τ) = (r₀ + (v₀ + ω r₀) τ) e^(−ωτ)` with
/// `τ` the time since `start`, so it starts at exactly `offset` with exactly `velocity`. Its
/// angular frequency ω is that of TransitionKit's ``Spring`` with damping ratio 1 and
/// `response` (ω = 2π / response).
///
/// Given an `end`, the offset is exactly zero from `end` on: the spring's own remainder at `end`
/// (below 0.1% of the travel when `end − start` is at least 1.47 responses) is taken away
/// along a smoothstep `h(u) = 3u² − 2u³` of `u = τ / (end − start)`, whose value and slope are
/// zero at the start, so neither the offset nor its velocity changes at `start`.
public struct OffsetSpring: Equatable, Sendable {
  public let start: Double
  /// When the offset is zero for good; nil for a spring left to settle on its own.
  public let end: Double?
  public let offset: Point
  public let velocity: Point
  /// The angular frequency, radians per second.
  public let omega: Double
  /// The uncorrected spring's offset at `end` (zero without an end).
  private let remainder: Point

  /// - Parameters:
  ///   - offset: the offset at `start`, points.
  ///   - velocity: its velocity at `start`, points per second.
  ///   - response: the spring's response (SwiftUI's), seconds; positive.
  ///   - end: when the offset must be exactly zero; after `start`, or nil.
  /// - Throws: `EngineError` for a response that is not positive and finite, or non-finite
  ///   input.
  public init(
    offset: Point, velocity: Point, response: Double, start: Double, end: Double?
  ) throws(EngineError) {
    let spring = try Spring(dampingRatio: 1, response: response)
    for (value, name) in [
      (offset.x, "offset.x"), (offset.y, "offset.y"), (velocity.x, "velocity.x"),
      (velocity.y, "velocity.y"), (start, "start"),
    ] {
      try EngineError.requireFinite(value, name)
    }
    self.start = start
    self.offset = offset
    self.velocity = velocity
    omega = (spring.stiffness / spring.mass).squareRoot()
    if let end, end.isFinite, end > start {
      self.end = end
      remainder = Self.raw(offset: offset, velocity: velocity, omega: omega, tau: end - start).value
    } else {
      self.end = end == nil ? nil : start
      remainder = .zero
    }
  }

  /// The offset at `time`: `offset` before `start`, zero from `end` on.
  public func value(at time: Double) -> Point {
    state(at: time).value
  }

  /// The offset's velocity at `time`, points per second.
  public func velocity(at time: Double) -> Point {
    state(at: time).velocity
  }

  /// Whether the offset is zero from `time` on.
  public func isSettled(at time: Double) -> Bool {
    if let end { return time >= end }
    let tau = time - start
    let raw = Self.raw(offset: offset, velocity: velocity, omega: omega, tau: max(tau, 0))
    return tau > 0 && abs(raw.value.x) < 1e-3 && abs(raw.value.y) < 1e-3
      && abs(raw.velocity.x) < 1e-2 && abs(raw.velocity.y) < 1e-2
  }

  private func state(at time: Double) -> (value: Point, velocity: Point) {
    if let end, time >= end { return (.zero, .zero) }
    let tau = max(time - start, 0)
    var (value, velocity) = Self.raw(
      offset: offset, velocity: self.velocity, omega: omega, tau: tau)
    if let end {
      let length = end - start
      let u = tau / length
      let h = u * u * (3 - 2 * u)
      let slope = 6 * u * (1 - u) / length
      value.x -= remainder.x * h
      value.y -= remainder.y * h
      velocity.x -= remainder.x * slope
      velocity.y -= remainder.y * slope
    }
    return (value, velocity)
  }

  private static func raw(offset: Point, velocity: Point, omega: Double, tau: Double) -> (
    value: Point, velocity: Point
  ) {
    let decay = exp(-omega * tau)
    func axis(_ r0: Double, _ v0: Double) -> (Double, Double) {
      let b = v0 + omega * r0
      return ((r0 + b * tau) * decay, (v0 - omega * b * tau) * decay)
    }
    let x = axis(offset.x, velocity.x)
    let y = axis(offset.y, velocity.y)
    return (Point(x: x.0, y: y.0), Point(x: x.1, y: y.1))
  }
}
