/// The clock of one transition: its state machine and its progress over time.
///
/// Times are seconds on a monotonic clock supplied by the caller (the engine reads no clock).
/// Progress is linear in [0, 1]; the timeline's curve is applied later, at evaluation.
///
/// - `running` moves at 1/duration per second (backwards after `reverse`); it completes at 1
///   with `finished` true, or at 0 (after a reversal) with `finished` false.
/// - `interactive` holds whatever `update(progress:)` sets, like
///   `UIPercentDrivenInteractiveTransition`.
/// - `finish` and `cancel` animate the rest of the way to 1 or 0 (`finishing`, `cancelling`) in
///   `remaining distance × duration / completionSpeed` seconds along `completionCurve`; given a
///   release velocity they follow a critically damped spring that starts at exactly that
///   velocity instead, so neither value nor velocity jumps at release.
/// - `completed` is final: progress is exactly 1 or exactly 0, and `advance(to:)` reports the
///   completion exactly once.
///
/// Every operation throws `invalidState` when the clock's state does not allow it, `nonFinite`
/// for a NaN or infinite time, progress or velocity, and `outOfRange` for a progress outside
/// [0, 1] or a velocity beyond ±`maximumReleaseVelocity`; a throwing operation changes nothing.
public struct TransitionClock: Sendable {
  /// The states of the session clock (docs/protocol.md, "Sessions and clocks").
  public enum State: String, Sendable, CaseIterable {
    case running, paused, interactive, finishing, cancelling, completed
  }

  /// How a transition ended.
  public struct Completion: Equatable, Sendable {
    /// True when it reached its end, false when it went back to its start.
    public var finished: Bool
    /// The clock time at which it ended.
    public var time: Double

    public init(finished: Bool, time: Double) {
      self.finished = finished
      self.time = time
    }
  }

  private enum Motion: Sendable {
    /// Not moving.
    case still(Double)
    /// Moving at `direction / duration` per second from `progress` at `time`.
    case linear(progress: Double, time: Double, direction: Double)
    /// Moving from `progress` to `target` along `curve` in `length` seconds.
    case eased(progress: Double, target: Double, time: Double, length: Double, curve: TimingCurve)
    /// Moving from `progress` to `target` as a spring that settles at its settling duration.
    case spring(progress: Double, target: Double, time: Double, spring: Spring)
  }

  /// The transition's duration at normal speed, in seconds.
  public let duration: Double
  /// Speed of `finish`/`cancel` relative to normal (UIKit's `completionSpeed`).
  public var completionSpeed: Double = 1
  /// Curve of `finish`/`cancel` without a velocity (UIKit's `completionCurve`).
  public var completionCurve: TimingCurve = .easeInEaseOut
  public private(set) var state: State
  private var motion: Motion
  /// The direction `resume` continues in: +1 forwards, −1 backwards.
  private var direction: Double = 1
  private var reported = false

  /// A clock that starts at progress 0 at `time`, running or waiting for interaction.
  /// - Throws: `EngineError` when `duration` is not positive and finite or `time` not finite.
  public init(duration: Double, interactive: Bool = false, at time: Double) throws(EngineError) {
    try EngineError.requireFinite(duration, "duration")
    try EngineError.requireFinite(time, "time")
    guard duration > 0 else {
      throw EngineError(.outOfRange, "duration must be positive, got \(duration)")
    }
    self.duration = duration
    state = interactive ? .interactive : .running
    motion = interactive ? .still(0) : .linear(progress: 0, time: time, direction: 1)
  }

  /// Linear progress at `time`, always in [0, 1].
  public func progress(at time: Double) -> Double {
    switch motion {
    case .still(let progress):
      return progress
    case .linear(let progress, let start, let direction):
      return Line(progress: progress, time: start, direction: direction, duration: duration)
        .progress(at: time)
    case .eased(let progress, let target, let start, let length, let curve):
      guard time < start + length else { return target }
      let local = max(time - start, 0) / length
      return Self.unit(progress + (target - progress) * curve.value(at: local))
    case .spring(let progress, let target, let start, let spring):
      guard time < start + spring.settlingDuration else { return target }
      // A released spring may overshoot its target; progress stays in [0, 1].
      return Self.unit(progress + (target - progress) * spring.value(at: max(time - start, 0)))
    }
  }

  /// The clock's progress as a ``Line`` until it changes; nil while a finish or cancel eases
  /// or springs it to its end.
  public var line: Line? {
    switch motion {
    case .still(let progress):
      Line(progress: progress, time: 0, direction: 0, duration: duration)
    case .linear(let progress, let start, let direction):
      Line(progress: progress, time: start, direction: direction, duration: duration)
    case .eased, .spring: nil
    }
  }

  /// `value` clamped to [0, 1]; NaN as 0.
  private static func unit(_ value: Double) -> Double {
    value > 0 ? min(value, 1) : 0
  }

  /// The rate of change of progress at `time`, in progress units per second.
  public func velocity(at time: Double) -> Double {
    switch motion {
    case .still:
      return 0
    case .linear(_, let start, let direction):
      guard let end = endTime, time < end, time >= start else { return 0 }
      return direction / duration
    case .eased(let progress, let target, let start, let length, let curve):
      guard time < start + length else { return 0 }
      return (target - progress) * curve.slope(at: max(time - start, 0) / length) / length
    case .spring(let progress, let target, let start, let spring):
      guard time < start + spring.settlingDuration else { return 0 }
      return (target - progress) * spring.velocity(at: max(time - start, 0))
    }
  }

  /// When the current motion ends if left alone; nil while paused, interactive or completed.
  public var endTime: Double? {
    switch motion {
    case .still: nil
    case .linear(let progress, let start, let direction):
      start + (direction > 0 ? 1 - progress : progress) * duration
    case .eased(_, _, let start, let length, _): start + length
    case .spring(_, _, let start, let spring): start + spring.settlingDuration
    }
  }

  /// Moves the clock to `time`; returns the completion the first time the end is reached.
  public mutating func advance(to time: Double) -> Completion? {
    if state != .completed, let end = endTime, time >= end {
      // The motion's direction, not `progress(at: end)`: a linear run's end time is rounded,
      // so the progress computed back from it can fall just short of 1.
      complete(finished: endsAtOne, at: end)
    }
    guard state == .completed, !reported, case .still(let progress) = motion else { return nil }
    reported = true
    return Completion(finished: progress == 1, time: completionTime)
  }

  private var completionTime: Double = 0

  /// Whether the current motion ends at progress 1 rather than at 0.
  private var endsAtOne: Bool {
    switch motion {
    case .still(let progress): progress >= 1
    case .linear(_, _, let direction): direction > 0
    case .eased(_, let target, _, _, _), .spring(_, let target, _, _): target >= 1
    }
  }

  private mutating func complete(finished: Bool, at time: Double) {
    state = .completed
    motion = .still(finished ? 1 : 0)
    completionTime = time
  }

  /// Sets progress while interactive.
  /// - Throws: `invalidState` unless interactive; `outOfRange` unless `progress` is in [0, 1].
  public mutating func update(progress: Double, at time: Double) throws(EngineError) {
    try require([.interactive], for: "update", at: time)
    try EngineError.require(progress, in: 0...1, "progress")
    motion = .still(progress)
  }

  /// Stops the motion where it is; `resume` continues it.
  public mutating func pause(at time: Double) throws(EngineError) {
    try require([.running, .finishing, .cancelling], for: "pause", at: time)
    if state == .finishing { direction = 1 }
    if state == .cancelling { direction = -1 }
    motion = .still(progress(at: time))
    state = .paused
  }

  /// Runs again at normal speed from the current progress: a paused transition in its previous
  /// direction, an interactive one forwards.
  public mutating func resume(at time: Double) throws(EngineError) {
    try require([.paused, .interactive], for: "resume", at: time)
    if state == .interactive { direction = 1 }
    run(from: progress(at: time), at: time)
  }

  /// Turns the motion around without a jump: running or paused transitions change direction;
  /// finishing becomes cancelling and the other way round.
  public mutating func reverse(at time: Double) throws(EngineError) {
    try require([.running, .paused, .finishing, .cancelling], for: "reverse", at: time)
    switch state {
    case .running:
      direction = -direction
      run(from: progress(at: time), at: time)
    case .paused:
      direction = -direction
    case .finishing:
      try settle(toEnd: false, velocity: nil, at: time)
    default:
      try settle(toEnd: true, velocity: nil, at: time)
    }
  }

  /// Jumps to `progress`; the state stays (a running or completing transition continues from
  /// there).
  public mutating func seek(progress: Double, at time: Double) throws(EngineError) {
    try require([.running, .paused, .interactive, .finishing, .cancelling], for: "seek", at: time)
    try EngineError.require(progress, in: 0...1, "progress")
    switch state {
    case .running: run(from: progress, at: time)
    case .finishing, .cancelling:
      let previous = motion
      motion = .still(progress)
      do {
        try settle(toEnd: state == .finishing, velocity: nil, at: time)
      } catch {
        motion = previous
        throw error
      }
    default: motion = .still(progress)
    }
  }

  /// Animates to the end (progress 1); completes with `finished` true.
  /// - Parameter velocity: release velocity in progress units per second, if any.
  public mutating func finish(velocity: Double? = nil, at time: Double) throws(EngineError) {
    try require(
      [.running, .paused, .interactive, .finishing, .cancelling], for: "finish", at: time)
    try settle(toEnd: true, velocity: velocity, at: time)
  }

  /// Animates back to the start (progress 0); completes with `finished` false, exactly on the
  /// initial state.
  /// - Parameter velocity: release velocity in progress units per second, if any.
  public mutating func cancel(velocity: Double? = nil, at time: Double) throws(EngineError) {
    try require(
      [.running, .paused, .interactive, .finishing, .cancelling], for: "cancel", at: time)
    try settle(toEnd: false, velocity: velocity, at: time)
  }

  private mutating func run(from progress: Double, at time: Double) {
    state = .running
    motion = .linear(progress: progress, time: time, direction: direction)
  }

  private mutating func settle(toEnd: Bool, velocity: Double?, at time: Double) throws(EngineError)
  {
    if let velocity {
      try EngineError.require(
        velocity, in: -Self.maximumReleaseVelocity...Self.maximumReleaseVelocity, "velocity")
    }
    try EngineError.requireFinite(completionSpeed, "completionSpeed")
    guard completionSpeed > 0 else {
      throw EngineError(.outOfRange, "completionSpeed must be positive, got \(completionSpeed)")
    }
    let start = progress(at: time)
    let target: Double = toEnd ? 1 : 0
    let distance = target - start
    guard distance != 0 else {
      complete(finished: toEnd, at: time)
      return
    }
    let length = abs(distance) * duration / completionSpeed
    if let velocity, velocity != 0 {
      let spring = try Spring(
        dampingRatio: 1, response: max(length, 0.05) * Self.responsePerSettlingSecond,
        // Over a tiny remaining distance the normalised velocity is huge (or infinite for a
        // subnormal one); capped, the spring still leaves at full speed and settles at once.
        initialVelocity: min(max(velocity / distance, -1e9), 1e9))
      motion = .spring(progress: start, target: target, time: time, spring: spring)
    } else {
      motion = .eased(
        progress: start, target: target, time: time, length: length, curve: completionCurve)
    }
    // Set last, so that a spring that cannot be built leaves the clock as it was.
    state = toEnd ? .finishing : .cancelling
  }

  /// Largest magnitude of a release velocity for `finish` and `cancel`, in progress units per
  /// second: the whole range in 10 ms, far beyond any gesture, and small enough that the
  /// release spring settles in a time comparable to the curve it replaces.
  public static let maximumReleaseVelocity = 100.0

  /// A critically damped spring settles (to 0.1%) in about 9.23/ω = 1.47 × its response; this
  /// factor makes a released spring take about as long as the curve it replaces.
  private static let responsePerSettlingSecond = 0.68

  /// Throws `invalidState` unless the clock is in one of `states`, and `nonFinite` unless `time`
  /// is finite.
  private func require(_ states: [State], for operation: String, at time: Double)
    throws(EngineError)
  {
    try EngineError.requireFinite(time, "time")
    guard states.contains(state) else {
      throw EngineError(
        .invalidState,
        "cannot \(operation) a transition that is \(state.rawValue)")
    }
  }
}
