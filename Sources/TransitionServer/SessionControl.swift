/// An interactive control op on a session, as the engine's `TransitionClock` defines it.
enum SessionControl: Equatable {
  case update(progress: Double)
  case pause
  case resume
  case reverse
  case seek(progress: Double)
  case finish(velocity: Double?)
  case cancel(velocity: Double?)

  /// The protocol's op names for the controls.
  static let opNames: Set<String> = [
    "update", "pause", "resume", "reverse", "seek", "finish", "cancel",
  ]
}
