import TransitionKit
import TransitionWire

/// An interactive control op on a session, as the engine's `TransitionClock` defines it, with
/// the finger's position and speed for timelines that follow a touch (``GestureFollower``).
enum SessionControl: Equatable, Sendable {
  /// At least one of the two is given (the decoder refuses neither).
  case update(progress: Double?, touch: Point? = nil)
  case pause
  case resume
  case reverse
  case seek(progress: Double)
  case finish(velocity: Double?, touchVelocity: Point? = nil)
  case cancel(velocity: Double?, touchVelocity: Point? = nil)
  /// The finger lets go at `touchVelocity`: finish or cancel as ``ReleaseDecision`` decides.
  case release(touchVelocity: Point)
}

extension SessionControl {
  /// The op that asks for this control.
  var op: Op {
    switch self {
    case .update: .update
    case .pause: .pause
    case .resume: .resume
    case .reverse: .reverse
    case .seek: .seek
    case .finish: .finish
    case .cancel: .cancel
    case .release: .release
    }
  }
}

extension SessionControl {
  /// The control of an `update` request: `progress`, `touch` or both.
  ///
  /// - Throws: `bad_request` naming a field of the wrong type, or when both are missing.
  static func update(reading request: Request) throws(WireError) -> SessionControl {
    let progress = try request.optionalNumber("progress")
    let touch = try request.optionalPoint("touch")
    guard progress != nil || touch != nil else {
      throw WireError(.badRequest, "update needs progress, touch or both")
    }
    return .update(progress: progress, touch: touch)
  }
}

/// What an `update` followed: the `followed` member of its reply.
enum FollowedInput: String, Sendable {
  /// The touch set the progress (the timeline has a gesture, and no progress was given).
  case touch
  /// The progress given set it.
  case progress
}
