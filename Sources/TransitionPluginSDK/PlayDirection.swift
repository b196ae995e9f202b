import TransitionKit

/// Which way a reversible transition plays its motions.
///
/// An animator designs one motion, forward (push, present), and plays the opposite operation
/// (pop, dismiss) as its mirror in time: a value that moves from `a` to `b` over the relative
/// window [s, e] forward moves from `b` to `a` over [1 − e, 1 − s] backward. With linear
/// keyframes the backward timeline at relative time 1 − u shows exactly the forward timeline's
/// state at u.
public enum PlayDirection: Sendable {
  case forward
  case backward

  /// `forward` for push and present, `backward` for pop and dismiss.
  public init(_ operation: TransitionOperation) {
    switch operation {
    case .push, .present: self = .forward
    case .pop, .dismiss: self = .backward
    }
  }

  /// The relative window in which a forward `window` plays in this direction.
  public func window(_ window: ClosedRange<Double>) -> ClosedRange<Double> {
    switch self {
    case .forward: window
    case .backward: (1 - window.upperBound)...(1 - window.lowerBound)
    }
  }

  /// The relative time at which a forward instant happens in this direction.
  public func instant(_ time: Double) -> Double {
    switch self {
    case .forward: time
    case .backward: 1 - time
    }
  }
}

/// One property's change, described as it plays forward.
public struct Motion: Sendable {
  public var property: LayerProperty
  /// The value before the window, forward (the value after it, backward).
  public var start: PropertyValue
  /// The value after the window, forward (the value before it, backward).
  public var end: PropertyValue
  /// The relative window of the change, forward.
  public var window: ClosedRange<Double>

  /// A linear change of `property` from `start` to `end` over `window` (relative time).
  public init(
    _ property: LayerProperty, from start: PropertyValue, to end: PropertyValue,
    over window: ClosedRange<Double> = 0...1
  ) {
    self.property = property
    self.start = start
    self.end = end
    self.window = window
  }

  /// A change of a number property.
  public init(
    _ property: LayerProperty, from start: Double, to end: Double,
    over window: ClosedRange<Double> = 0...1
  ) {
    self.init(property, from: .number(start), to: .number(end), over: window)
  }
}

extension Motion {
  /// The motion as it plays in `direction`: itself forward; backward its mirror in time, from
  /// `end` to `start` over [1 − e, 1 − s].
  public func played(_ direction: PlayDirection) -> Motion {
    switch direction {
    case .forward: self
    case .backward: Motion(property, from: end, to: start, over: direction.window(window))
    }
  }
}

extension TimelineLayer {
  /// Plays `motion` in `direction`: sets the property's initial value and adds its track.
  /// Backward, the motion is mirrored in time (`Motion.played(_:)`).
  ///
  /// A property can take one motion; give several properties one motion each.
  public mutating func play(_ motion: Motion, _ direction: PlayDirection) {
    play(asWritten: motion.played(direction))
  }

  /// Plays `motion` as written, whatever the direction: the property starts at `start` and
  /// changes linearly to `end` over `window`.
  public mutating func play(asWritten motion: Motion) {
    initial.set(motion.property, to: motion.start)
    tracks.append(
      PropertyTrack(
        motion.property,
        keyframes: [
          Keyframe(
            start: motion.window.lowerBound,
            duration: motion.window.upperBound - motion.window.lowerBound, value: motion.end)
        ]))
  }

  /// Plays the motion written for `direction`, as written (not mirrored).
  public mutating func play(_ motion: DirectedMotion, _ direction: PlayDirection) {
    play(asWritten: motion.motion(for: direction))
  }

  /// Makes the layer hidden before the forward instant `instant` and shown from it on; played
  /// backward it is shown until `1 − instant` and hidden from there to the end.
  public mutating func appear(at instant: Double, _ direction: PlayDirection) {
    switch direction {
    case .forward:
      initial.hidden = true
      tracks.append(
        PropertyTrack(
          .hidden, mode: .discrete,
          keyframes: [Keyframe(start: instant, duration: 0, value: .bool(false))]))
    case .backward:
      initial.hidden = false
      tracks.append(
        PropertyTrack(
          .hidden, mode: .discrete,
          keyframes: [Keyframe(start: 1 - instant, duration: 0, value: .bool(true))]))
    }
  }

  /// Makes the layer visible only from relative time `visible.lowerBound` until just before
  /// `visible.upperBound`, and hidden outside that window.
  public mutating func show(only visible: Range<Double>) {
    initial.hidden = true
    tracks.append(
      PropertyTrack(
        .hidden, mode: .discrete,
        keyframes: [
          Keyframe(start: visible.lowerBound, duration: 0, value: .bool(false)),
          Keyframe(start: visible.upperBound, duration: 0, value: .bool(true)),
        ]))
  }

  /// Makes the layer hidden from relative time `hidden.lowerBound` until just before
  /// `hidden.upperBound`, and visible outside that window.
  public mutating func hide(during hidden: Range<Double>) {
    initial.hidden = false
    tracks.append(
      PropertyTrack(
        .hidden, mode: .discrete,
        keyframes: [
          Keyframe(start: hidden.lowerBound, duration: 0, value: .bool(true)),
          Keyframe(start: hidden.upperBound, duration: 0, value: .bool(false)),
        ]))
  }
}
