import TransitionWire

/// An interactive control op on a session, as the engine's `TransitionClock` defines it.
enum SessionControl: Equatable, Sendable {
  case update(progress: Double)
  case pause
  case resume
  case reverse
  case seek(progress: Double)
  case finish(velocity: Double?)
  case cancel(velocity: Double?)
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
    }
  }
}
