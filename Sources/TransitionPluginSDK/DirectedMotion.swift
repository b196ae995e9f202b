import TransitionKit

/// A motion written separately for each direction, for a transition that is not itself played
/// backwards: a fade-through whose incoming screen always arrives last, a cube that always
/// turns the same way, a dismissal faster than its presentation.
///
/// `PlayDirection`'s mirror fits a time-symmetric transition (pop is push played backwards);
/// a `DirectedMotion` plays each direction's motion as written, so that, for example, the
/// outgoing screen fades out over [0, 0.5] both ways.
public struct DirectedMotion: Sendable {
  /// What plays for push and present.
  public var forward: Motion
  /// What plays for pop and dismiss, as written (not mirrored).
  public var backward: Motion

  public init(forward: Motion, backward: Motion) {
    self.forward = forward
    self.backward = backward
  }

  /// The same motion, as written, in both directions.
  public init(always motion: Motion) {
    self.init(forward: motion, backward: motion)
  }

  /// The motion written for `direction`.
  public func motion(for direction: PlayDirection) -> Motion {
    direction.choose(forward: forward, backward: backward)
  }
}

extension PlayDirection {
  /// `forward` when playing forward, `backward` otherwise: for any value that differs by
  /// direction (a curve, a duration, which screen goes on top).
  public func choose<Value>(forward: Value, backward: Value) -> Value {
    self == .forward ? forward : backward
  }
}
