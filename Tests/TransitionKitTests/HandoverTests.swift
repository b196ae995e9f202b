import Foundation
import Testing

@testable import TransitionKit

/// The handover of an interrupting session (``Handover``): position and velocity continuous
/// for boxes, opacity and transforms, perspective ones too.
@Suite struct HandoverTests {
  /// The album flip's cover: a rotation about the layer's left edge under perspective.
  static func cover(angle: Double) -> LayerState {
    LayerState(
      id: "cover", frame: Rect(x: 16, y: 326, width: 171, height: 171),
      anchor: Point(x: 0, y: 0.5),
      transform: Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0)
        .concatenating(.perspective(m34: -1.0 / 500)))
  }

  static func corners(_ layer: LayerState) -> [Point] {
    let box = layer.frame
    return [
      Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
      Point(x: box.maxX, y: box.maxY), Point(x: box.minX, y: box.maxY),
    ].map(layer.project)
  }

  /// Old: closing at `oldSpeed` rad/s from `oldAngle`; new: opening from 0 at `newSpeed`.
  static func handover(oldAngle: Double, oldSpeed: Double, newSpeed: Double) -> (
    Handover, (Double) -> Frame, (Double) -> Frame
  ) {
    let old = { (t: Double) in Frame(t: t, layers: [cover(angle: oldAngle + oldSpeed * t)]) }
    let new = { (t: Double) in Frame(t: t, layers: [cover(angle: -newSpeed * t * t)]) }
    let step = Handover.velocityStep
    let handover = Handover(
      old: [old(0), old(-step), old(-2 * step)], new: [new(0), new(step), new(2 * step)])
    return (handover, old, new)
  }

  /// A window whose corners were rounding at 20 pt/s hands its radius over continuously.
  @Test func theCornerRadiusIsContinuous() {
    func window(_ radius: Double) -> Frame {
      Frame(layers: [
        LayerState(
          id: "window", frame: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: radius)
      ])
    }
    let step = Handover.velocityStep
    let handover = Handover(
      old: [window(10), window(10 - 20 * step), window(10 - 40 * step)],
      new: [window(0), window(0), window(0)])
    #expect(handover.fields.contains(.cornerRadius))
    var start = window(0)
    handover.apply(to: &start, at: 0)
    #expect(abs(start.layers[0].cornerRadius - 10) < 1e-9)
    var later = window(0)
    handover.apply(to: &later, at: step)
    #expect(abs(later.layers[0].cornerRadius - (10 + 20 * step)) < 1e-6)
    var end = window(0)
    handover.apply(to: &end, at: handover.duration)
    #expect(end.layers[0].cornerRadius == 0)
  }

  @Test(arguments: [-0.3, -1.2, -1.6, -2.0, -2.8, -3.1])
  func aPerspectiveFlipKeepsItsCornersAndTheirVelocity(oldAngle: Double) {
    let (handover, old, new) = Self.handover(oldAngle: oldAngle, oldSpeed: 6, newSpeed: 20)
    func shown(_ t: Double) -> [Point] {
      var frame = new(t)
      handover.apply(to: &frame, at: t)
      return Self.corners(frame.layers[0])
    }
    let h = 1e-5
    let before = Self.corners(old(0).layers[0])
    let oldEarlier = Self.corners(old(-h).layers[0])
    let after = shown(0)
    let afterNext = shown(h)
    for index in 0..<4 {
      let jump = hypot(after[index].x - before[index].x, after[index].y - before[index].y)
      #expect(jump < 1e-6, "corner \(index) jumps \(jump) pt")
      let vOld = Point(
        x: (before[index].x - oldEarlier[index].x) / h,
        y: (before[index].y - oldEarlier[index].y) / h)
      let vNew = Point(
        x: (afterNext[index].x - after[index].x) / h, y: (afterNext[index].y - after[index].y) / h)
      let change = hypot(vNew.x - vOld.x, vNew.y - vOld.y)
      #expect(
        change <= max(0.01 * hypot(vOld.x, vOld.y), 1),
        "corner \(index): \(vOld) → \(vNew)")
    }
    // Settled on the new timeline once the handover time is over.
    var late = new(Handover.defaultDuration)
    handover.apply(to: &late, at: Handover.defaultDuration)
    #expect(late == new(Handover.defaultDuration))
  }

  /// A card that moves right from x = 0 to x = 200 over `curve`, in a timeline of 1 s whose
  /// own curve is `timelineCurve`.
  static func slide(_ curve: TimingCurve, timelineCurve: TimingCurve = .linear) throws -> Timeline {
    try Timeline(
      duration: 1, curve: timelineCurve,
      layers: [
        TimelineLayer(
          id: "card", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 100, height: 100)),
          tracks: [
            PropertyTrack(
              .position,
              keyframes: [
                Keyframe(start: 0, duration: 1, value: .point(Point(x: 250, y: 50)), curve: curve)
              ])
          ])
      ])
  }

  /// The card at x = 100 moving left at 800 pt/s hands over to `timeline`; the frames shown.
  static func interrupt(_ timeline: Timeline, springs: Bool) -> (Double) -> Frame {
    let old = { (t: Double) in
      Frame(
        t: t,
        layers: [
          LayerState(id: "card", frame: Rect(x: 100 - 800 * t, y: 0, width: 100, height: 100))
        ])
    }
    let evaluator = TimelineEvaluator(timeline)
    let new = { (t: Double) in
      evaluator.frame(progress: max(t, Handover.startProgress), time: t)
    }
    let step = Handover.velocityStep
    let start = Handover.startProgress
    let handover = Handover(
      old: [old(0), old(-step), old(-2 * step)],
      new: [new(start), new(start + step), new(start + 2 * step)],
      timeline: springs ? timeline : nil)
    return { t in
      var frame = new(t)
      handover.apply(to: &frame, at: t)
      return frame
    }
  }

  /// A spring track takes the handed velocity as its own initial velocity: what is shown is
  /// the spring from the presented x (100) and velocity (−800 pt/s) to the target (200), with
  /// its overshoot, and it lands exactly on the target.
  @Test func aSpringStartsFromThePresentedValueAndVelocity() throws {
    let spring = try Spring(duration: 0.5, bounce: 0.3)
    let shown = Self.interrupt(try Self.slide(.spring(spring)), springs: true)
    func x(_ t: Double) -> Double { shown(t).layers[0].frame.x }
    #expect(abs(x(0) - 100) < 1e-6)
    let h = 1e-5
    let velocity = (x(h) - x(0)) / h
    #expect(abs(velocity + 800) < 8, "\(velocity) pt/s")
    // The spring retargeted: from 100 towards 200, its initial velocity −800 pt/s in its
    // own travel per second (the curve plays the spring's settling time over the 1 s key).
    let rate = spring.settlingDuration
    var retargeted = spring
    retargeted.initialVelocity = -800 / (100 * rate)
    var overshoot = 0.0
    for step in 1...99 {
      let t = Double(step) / 100
      let expected = 100 + 100 * retargeted.value(at: t * rate)
      #expect(abs(x(t) - expected) < 0.5, "at \(t) s: \(x(t)), the spring \(expected)")
      overshoot = max(overshoot, x(t) - 200)
    }
    #expect(overshoot > 5, "a spring of bounce 0.3 overshoots its target")
    #expect(x(1) == 200)
    // The Hermite blend would have drawn another motion.
    let blended = Self.interrupt(try Self.slide(.spring(spring)), springs: false)
    #expect(abs(blended(0.15).layers[0].frame.x - x(0.15)) > 5)
  }

  /// A keyframed (curve) track keeps the Hermite blend, timeline or not; so does a track of a
  /// timeline whose own curve is a spring (its key's time stops at the end as it overshoots).
  @Test(arguments: [false, true]) func aKeyframedTrackKeepsTheBlend(timelineSpring: Bool) throws {
    let timeline =
      timelineSpring
      ? try Self.slide(.linear, timelineCurve: .spring(Spring(duration: 0.5, bounce: 0.3)))
      : try Self.slide(.easeInEaseOut)
    let withTimeline = Self.interrupt(timeline, springs: true)
    let without = Self.interrupt(timeline, springs: false)
    for step in 0...40 {
      let t = Double(step) / 100
      #expect(withTimeline(t) == without(t), "at \(t) s")
    }
  }
}
