/// How a ``Handover`` offset moves where the new timeline drives a layer's property with a
/// spring (docs/animators.md, "Interruption"): as the spring's own free motion, so that the
/// new track plus the offset is that spring started from the presented value with the
/// presented velocity, as UIKit and SwiftUI retarget a spring.
///
/// A spring's motion toward its target is linear in its start: the track's own motion from
/// its `from` at rest, plus the free motion (the spring's equation with no target) of the
/// difference in value Δp and velocity Δv, is the spring from the presented value with the
/// presented velocity, exactly. The free motion in the spring's own time τ is
/// `Δp · (1 − x₀(τ)) + Δv / r · (x₁(τ) − x₀(τ))`, with x₀ and x₁ the spring from 0 to 1
/// started at 0 and at 1 travel per second and r the spring seconds per session second.
/// The curve ends its key exactly on the target; so does the offset: what the free motion
/// still has when the key ends (a thousandth of the difference or so, the spring's settling
/// threshold) is taken away along a smoothstep over the key, whose value and slope are zero
/// at the start, so neither the value nor the velocity handed over changes.
struct HandoverSpring: Equatable, Sendable {
  /// The spring from 0 to 1 started at rest.
  private let atRest: Spring
  /// The same spring started at one travel a second.
  private let pushed: Spring
  /// Spring seconds per session second.
  let rate: Double
  /// Session seconds at which the key ends, and the offset is zero for good.
  let end: Double
  /// The free motion's weights at ``end``: what the smoothstep takes away.
  private var left: (value: Double, velocity: Double) = (0, 0)

  /// The spring that drives `track` from the start of a timeline played over `duration`
  /// seconds whose curve is `curve`: the track's first key starts at 0 in linear mode and is
  /// eased by a spring, while the timeline's curve is linear. Nil for any other track, whose
  /// handover is the Hermite blend; a timeline whose own curve is a spring among them, since
  /// its keys' time stops at their end where the spring overshoots, so that its tracks do not
  /// move as a spring does.
  init?(driving track: PropertyTrack, curve: TimingCurve, duration: Double) {
    guard track.mode == .linear, curve == .linear, duration > 0, duration.isFinite,
      let first = track.keyframes.min(by: { $0.relativeStart < $1.relativeStart }),
      first.relativeStart == 0, first.relativeDuration > 0,
      case .spring(let spring) = first.curve
    else { return nil }
    let span = min(first.relativeDuration, 1) * duration
    let settling = spring.settlingDuration
    guard settling > 0, settling.isFinite, var atRest = try? spring.validated() else {
      return nil
    }
    atRest.initialVelocity = 0
    var pushed = atRest
    pushed.initialVelocity = 1
    self.atRest = atRest
    self.pushed = pushed
    rate = settling / span
    end = span
    left = freeMotion(at: span)
  }

  static func == (a: HandoverSpring, b: HandoverSpring) -> Bool {
    a.atRest == b.atRest && a.rate == b.rate && a.end == b.end
  }

  /// The weights at session time `t` of the value difference and of the velocity difference
  /// (as ``Handover/weights(at:)``): 1 and 0 at 0, with slopes 0 and 1; both 0 from ``end``
  /// on.
  func weights(at t: Double) -> (value: Double, velocity: Double) {
    guard t < end else { return (0, 0) }
    let time = max(t, 0)
    let free = freeMotion(at: time)
    let u = time / end
    let smoothstep = u * u * (3 - 2 * u)
    return (free.value - left.value * smoothstep, free.velocity - left.velocity * smoothstep)
  }

  /// The free motion's weights at session time `t`, before the remainder is taken away.
  private func freeMotion(at t: Double) -> (value: Double, velocity: Double) {
    let tau = t * rate
    let still = atRest.value(at: tau)
    return (1 - still, (pushed.value(at: tau) - still) / rate)
  }
}
