extension TransitionClock {
  /// A clock's progress as a line in time, while the clock stands still or runs at normal
  /// speed (not while a finish or cancel eases or springs it to its end): four numbers that
  /// give what ``TransitionClock/progress(at:)`` gives, bit for bit, until the clock changes.
  /// For a holder that keeps it beside the clock and reads it every frame: reading the clock
  /// itself (a few hundred bytes) would copy it.
  public struct Line: Equatable, Sendable {
    /// The progress at `time`.
    public let progress: Double
    public let time: Double
    /// +1 running forwards, −1 backwards, 0 standing still.
    public let direction: Double
    /// The seconds a whole run takes.
    public let duration: Double

    /// Linear progress at `time`, always in [0, 1].
    @inlinable
    public func progress(at time: Double) -> Double {
      min(max(progress + direction * (time - self.time) / duration, 0), 1)
    }
  }
}
