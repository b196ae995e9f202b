import Foundation
import Testing

@testable import TransitionKit

/// An independent reference: m x″ + c x′ + k (x − 1) = 0 integrated with classical RK4 from
/// x = 0, x′ = v₀.
private struct RungeKuttaSpring {
  let mass: Double
  let stiffness: Double
  let damping: Double
  var position = 0.0
  var velocity: Double
  var time = 0.0

  init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    velocity = initialVelocity
  }

  private func acceleration(_ x: Double, _ v: Double) -> Double {
    (-stiffness * (x - 1) - damping * v) / mass
  }

  mutating func step(_ dt: Double) {
    let (x, v) = (position, velocity)
    let k1x = v
    let k1v = acceleration(x, v)
    let k2x = v + 0.5 * dt * k1v
    let k2v = acceleration(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v)
    let k3x = v + 0.5 * dt * k2v
    let k3v = acceleration(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v)
    let k4x = v + dt * k3v
    let k4v = acceleration(x + dt * k3x, v + dt * k3v)
    position += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
    velocity += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    time += dt
  }
}

/// (mass, stiffness, damping, initial velocity): under-, critically, over- and nearly
/// critically damped springs, at rest and thrown either way at the start.
private let springCases: [(mass: Double, stiffness: Double, damping: Double, velocity: Double)] =
  [
    (1, 100, 4, 0),  // ζ = 0.2
    (1, 100, 4, 5),
    (1, 100, 4, -3),
    (2, 300, 3, 10),  // ζ ≈ 0.061
    (1, 100, 20, 0),  // ζ = 1 exactly
    (1, 100, 20, 8),
    (1, 100, 20, -8),
    (1, 100, 50, 0),  // ζ = 2.5
    (1, 100, 50, 40),  // overshoots despite the damping
    (1, 100, 50, -6),
    (0.5, 50, 100, 1),  // ζ = 10
    (1, 100, 20 * (1 + 1e-9), 2),  // just over-damped
    (1, 100, 20 * (1 - 1e-9), 2),  // just under-damped
    (1, 100, 19.9, 0),
    (1, 100, 20.1, 0),
  ]

@Suite struct SpringTests {
  private func makeSpring(_ index: Int) throws -> Spring {
    let (mass, stiffness, damping, velocity) = springCases[index]
    return try Spring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
  }

  @Test(arguments: springCases.indices)
  func closedFormMatchesNumericalIntegration(caseIndex: Int) throws {
    let spring = try makeSpring(caseIndex)
    let (mass, stiffness, damping, velocity) = springCases[caseIndex]
    var reference = RungeKuttaSpring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
    let dt = 1e-5
    var worstValueError = 0.0
    var worstVelocityError = 0.0
    for stepIndex in 1...300_000 {
      reference.step(dt)
      guard stepIndex % 1000 == 0 else { continue }
      let time = Double(stepIndex) * dt
      worstValueError = max(worstValueError, abs(spring.value(at: time) - reference.position))
      worstVelocityError = max(
        worstVelocityError, abs(spring.velocity(at: time) - reference.velocity))
    }
    #expect(worstValueError < 1e-9, "value error \(worstValueError)")
    #expect(worstVelocityError < 1e-7, "velocity error \(worstVelocityError)")
  }

  @Test(arguments: springCases.indices)
  func startsAtZeroWithTheRequestedVelocity(caseIndex: Int) throws {
    let spring = try makeSpring(caseIndex)
    let requested = springCases[caseIndex].velocity
    #expect(spring.value(at: 0) == 0)
    #expect(spring.value(at: -1) == 0)
    #expect(spring.value(at: .nan) == 0)
    #expect(spring.value(at: .infinity) == 1)
    #expect(spring.velocity(at: -1) == 0)
    #expect(spring.velocity(at: .infinity) == 0)
    #expect(abs(spring.velocity(at: 0) - requested) <= 1e-12 * max(1, abs(requested)))
    let h = 1e-7
    let forwardDifference = spring.value(at: h) / h
    #expect(abs(forwardDifference - requested) < 1e-4 * max(1, abs(requested)))
  }

  @Test(arguments: springCases.indices)
  func velocityIsTheDerivativeOfValue(caseIndex: Int) throws {
    let spring = try makeSpring(caseIndex)
    let h = 1e-6
    for index in 1...200 {
      let time = Double(index) * 0.01
      let difference = (spring.value(at: time + h) - spring.value(at: time - h)) / (2 * h)
      #expect(abs(spring.velocity(at: time) - difference) < 1e-5 * max(1, abs(difference)))
    }
  }

  /// The last time |1 − x| ≥ threshold, found by integrating with RK4 far past the settling
  /// duration.
  private func scannedSettlingTime(_ caseIndex: Int, until end: Double, dt: Double) -> Double {
    let (mass, stiffness, damping, velocity) = springCases[caseIndex]
    var reference = RungeKuttaSpring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
    var lastAbove = 0.0
    while reference.time < end {
      reference.step(dt)
      if abs(1 - reference.position) >= Spring.settlingThreshold { lastAbove = reference.time }
    }
    return lastAbove
  }

  @Test(arguments: springCases.indices)
  func settlingDurationMatchesBruteForceScan(caseIndex: Int) throws {
    let spring = try makeSpring(caseIndex)
    let settling = spring.settlingDuration
    #expect(settling > 0 && settling.isFinite)
    let dt = 2e-5
    let scanned = scannedSettlingTime(caseIndex, until: 3 * settling + 1, dt: dt)
    // The scan's last sample above the threshold lies within one step before the crossing.
    #expect(scanned <= settling + 1e-9, "scan \(scanned), settling \(settling)")
    #expect(scanned > settling - 2 * dt, "scan \(scanned), settling \(settling)")
    // And the closed form agrees on both sides of it.
    #expect(abs(1 - spring.value(at: settling * (1 - 1e-9))) >= Spring.settlingThreshold * 0.999)
    #expect(abs(1 - spring.value(at: settling)) <= Spring.settlingThreshold)
  }

  @Test func settlingDurationOfACriticalSpringMatchesItsFormula() throws {
    // Critically damped from rest: 1 − x = (1 + ω t) e^(−ω t); solve (1 + u) e^(−u) = 0.001.
    let spring = try Spring(stiffness: 100, damping: 20)
    var u = 10.0
    for _ in 0..<100 { u = log((1 + u) / Spring.settlingThreshold) }
    #expect(abs(spring.settlingDuration - u / 10) < 1e-12)
  }

  @Test(arguments: [(0.5, 0.0), (0.5, 0.3), (1.2, -0.4), (0.35, 0.9), (2, -0.99)])
  func durationAndBounceFollowSwiftUI(duration: Double, bounce: Double) throws {
    let spring = try Spring(duration: duration, bounce: bounce, initialVelocity: 1.5)
    #expect(spring.mass == 1)
    #expect(abs(spring.stiffness - pow(2 * Double.pi / duration, 2)) <= 1e-12 * spring.stiffness)
    // SwiftUI's mapping: damping ratio 1 − bounce for bounce ≥ 0, 1 / (1 + bounce) below 0.
    let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let omega = 2 * Double.pi / duration
    #expect(abs(spring.damping - 2 * ratio * omega) <= 1e-12 * spring.damping)
    #expect(abs(spring.dampingRatio - ratio) < 1e-12 * ratio)
    #expect(spring.initialVelocity == 1.5)
  }

  /// SwiftUI's `Spring(duration: 0.5, bounce: -0.5)` (documented: a negative bounce is
  /// over-damped with damping ratio 1 / (1 + bounce) = 2; Flutter's
  /// `SpringDescription.withDurationAndBounce` follows it). Positions computed independently
  /// from the closed-form over-damped solution with 50-digit arithmetic (mpmath); the old
  /// mapping (ratio 1 − bounce = 1.5) is up to 0.115 of the travel away from these.
  @Test func negativeBounceIsOverDampedAsSwiftUI() throws {
    let spring = try Spring(duration: 0.5, bounce: -0.5)
    #expect(abs(spring.dampingRatio - 2) < 1e-12)
    for (time, position) in [
      (0.1, 0.23136150910208755566), (0.25, 0.53572767457937644467),
      (0.5, 0.79992637535470720765),
    ] {
      #expect(abs(spring.value(at: time) - position) < 1e-9, "t = \(time)")
    }
    // A positive bounce is unchanged: ratio 0.7, under-damped.
    let bouncy = try Spring(duration: 0.5, bounce: 0.3)
    #expect(abs(bouncy.value(at: 0.1) - 0.42330212307456980653) < 1e-9)
    #expect(abs(bouncy.value(at: 0.25) - 0.9840874909713709247) < 1e-9)
  }

  @Test(arguments: [(0.2, 0.4), (1, 0.5), (3, 0.25)])
  func dampingRatioAndResponseFollowSwiftUI(ratio: Double, response: Double) throws {
    let spring = try Spring(dampingRatio: ratio, response: response)
    #expect(spring.mass == 1)
    #expect(
      abs(spring.stiffness - pow(2 * Double.pi / response, 2)) <= 1e-12 * spring.stiffness)
    #expect(abs(spring.damping - 4 * Double.pi * ratio / response) <= 1e-12 * spring.damping)
    #expect(abs(spring.dampingRatio - ratio) < 1e-12)
    #expect(spring.initialVelocity == 0)
  }

  @Test func dampingRatioFollowsItsDefinition() throws {
    let spring = try Spring(mass: 2, stiffness: 50, damping: 6)
    #expect(abs(spring.dampingRatio - 6 / (2 * (50 * 2.0).squareRoot())) < 1e-15)
  }

  @Test func changingAParameterChangesTheMotion() throws {
    var spring = try Spring(stiffness: 100, damping: 4)
    spring.damping = 30
    spring.mass = 2
    spring.stiffness = 150
    spring.initialVelocity = -2
    let fresh = try Spring(mass: 2, stiffness: 150, damping: 30, initialVelocity: -2)
    #expect(spring == fresh)
    #expect(spring.hashValue == fresh.hashValue)
    #expect(spring.settlingDuration == fresh.settlingDuration)
    for time in stride(from: 0.0, through: 3, by: 0.1) {
      #expect(spring.value(at: time) == fresh.value(at: time))
      #expect(spring.velocity(at: time) == fresh.velocity(at: time))
    }
  }

  @Test func springsWithDifferentParametersDiffer() throws {
    #expect(try Spring(stiffness: 100, damping: 4) != Spring(stiffness: 100, damping: 5))
    #expect(
      try Spring(stiffness: 100, damping: 4)
        != Spring(stiffness: 100, damping: 4, initialVelocity: 1))
  }

  @Test func invalidAssignedParametersJumpToTheTarget() throws {
    var spring = try Spring(stiffness: 100, damping: 10)
    spring.mass = 0
    #expect(spring.value(at: 0) == 0)
    #expect(spring.value(at: 0.1) == 1)
    #expect(spring.velocity(at: 0.1) == 0)
    #expect(spring.settlingDuration == 0)
    #expect(TimingCurve.spring(spring).value(at: 0.5) == 1)
    #expect(TimingCurve.spring(spring).value(at: 0) == 0)
    #expect {
      _ = try spring.validated()
    } throws: { error in
      (error as? EngineError)?.code == .outOfRange
    }
  }

  @Test func extremeButValidSpringsStayFinite() throws {
    let springs = [
      try Spring(mass: 1e-6, stiffness: 1e9, damping: 1),
      try Spring(stiffness: 1e-4, damping: 1e-4),
      try Spring(stiffness: 1, damping: 1e6),
      try Spring(stiffness: 100, damping: 1e-3, initialVelocity: 1e3),
    ]
    for spring in springs {
      let settling = spring.settlingDuration
      #expect(settling > 0 && settling.isFinite, "\(spring)")
      for fraction in stride(from: 0.0, through: 2, by: 0.05) {
        #expect(spring.value(at: fraction * settling).isFinite, "\(spring) at \(fraction)")
        #expect(spring.velocity(at: fraction * settling).isFinite, "\(spring) at \(fraction)")
      }
      #expect(abs(1 - spring.value(at: settling * 1.000001)) < Spring.settlingThreshold)
    }
  }

  @Test func invalidPhysicalParametersThrow() {
    let attempts: [(String, EngineError.Code, () throws -> Spring)] = [
      ("mass", .outOfRange, { try Spring(mass: 0, stiffness: 100, damping: 10) }),
      ("mass", .outOfRange, { try Spring(mass: -1, stiffness: 100, damping: 10) }),
      ("stiffness", .outOfRange, { try Spring(stiffness: -100, damping: 10) }),
      ("stiffness", .outOfRange, { try Spring(stiffness: 0, damping: 10) }),
      ("damping", .outOfRange, { try Spring(stiffness: 100, damping: 0) }),
      ("damping", .outOfRange, { try Spring(stiffness: 100, damping: -2) }),
      ("mass", .nonFinite, { try Spring(mass: .nan, stiffness: 100, damping: 10) }),
      ("stiffness", .nonFinite, { try Spring(stiffness: .infinity, damping: 10) }),
      ("damping", .nonFinite, { try Spring(stiffness: 100, damping: .nan) }),
      (
        "initialVelocity", .nonFinite,
        { try Spring(stiffness: 100, damping: 10, initialVelocity: -.infinity) }
      ),
    ]
    for (parameter, code, attempt) in attempts {
      #expect {
        _ = try attempt()
      } throws: { error in
        guard let error = error as? EngineError else { return false }
        return error.code == code && error.message.hasPrefix(parameter)
      }
    }
  }

  @Test func invalidSwiftUIParametersThrow() {
    let attempts: [(String, EngineError.Code, () throws -> Spring)] = [
      ("duration", .outOfRange, { try Spring(duration: 0) }),
      ("duration", .outOfRange, { try Spring(duration: -1) }),
      ("duration", .nonFinite, { try Spring(duration: .infinity) }),
      ("bounce", .outOfRange, { try Spring(duration: 1, bounce: 1) }),
      ("bounce", .outOfRange, { try Spring(duration: 1, bounce: -1) }),
      ("bounce", .nonFinite, { try Spring(duration: 1, bounce: .nan) }),
      ("initialVelocity", .nonFinite, { try Spring(duration: 1, initialVelocity: .nan) }),
      ("dampingRatio", .outOfRange, { try Spring(dampingRatio: 0, response: 1) }),
      ("dampingRatio", .nonFinite, { try Spring(dampingRatio: .nan, response: 1) }),
      ("response", .outOfRange, { try Spring(dampingRatio: 1, response: -0.5) }),
    ]
    for (parameter, code, attempt) in attempts {
      #expect {
        _ = try attempt()
      } throws: { error in
        guard let error = error as? EngineError else { return false }
        return error.code == code && error.message.hasPrefix(parameter)
      }
    }
  }
}
