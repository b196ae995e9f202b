/// Whether a finger that lets go finishes or cancels a session that follows it (the `release`
/// op, docs/protocol.md, "Touch"): velocity first, then progress.
///
/// UIKit leaves the decision to the gesture handler: Apple's `UIPercentDrivenInteractiveTransition`
/// reference says to call `finish()` or `cancel()` "from a gesture recognizer" and publishes no
/// threshold for its own back swipe. The numbers are the project's recommendation
/// (docs/protocol.md, "Touch"): a fling faster than ``flingSpeed`` decides by its sign, and a
/// slower release finishes past ``halfway``.
public enum ReleaseDecision: String, Sendable, Equatable {
  case finish
  case cancel

  /// The speed along the gesture's axis, points per second, above which the direction of the
  /// fling alone decides.
  public static let flingSpeed = 500.0
  /// The progress past which a slow release finishes.
  public static let halfway = 0.5

  /// The decision for a release at `progress` with the finger moving at `speed` points per
  /// second along the direction that raises progress (negative: back towards the start).
  /// - Precondition: both finite.
  public init(progress: Double, speed: Double) {
    assert(progress.isFinite && speed.isFinite, "a release needs finite inputs")
    if speed > Self.flingSpeed {
      self = .finish
    } else if speed < -Self.flingSpeed {
      self = .cancel
    } else {
      self = progress > Self.halfway ? .finish : .cancel
    }
  }
}
