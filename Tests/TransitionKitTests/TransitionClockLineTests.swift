import Testing
import TransitionKit

/// ``TransitionKit/TransitionClock/line``: while the clock stands still or runs at normal
/// speed, its line gives the clock's progress bit for bit until the clock changes; while a
/// finish or cancel eases or springs it there is none.
@Suite struct TransitionClockLineTests {
  /// Expects the clock's line to give its progress, bit for bit, around `time`.
  private func expectLineFollows(
    _ clock: TransitionClock, around time: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let line = try #require(clock.line, sourceLocation: sourceLocation)
    for offset in stride(from: -1.0, through: 3, by: 0.0137) {
      let at = time + offset
      #expect(
        line.progress(at: at).bitPattern == clock.progress(at: at).bitPattern, "at \(at)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func theLineFollowsTheClockThroughEveryStillOrRunningState() throws {
    var clock = try TransitionClock(duration: 0.35, at: 100.25)
    try expectLineFollows(clock, around: 100.25)
    try clock.pause(at: 100.4)
    try expectLineFollows(clock, around: 100.4)
    try clock.reverse(at: 100.5)
    try clock.resume(at: 100.6)
    try expectLineFollows(clock, around: 100.6)
    try clock.seek(progress: 0.7, at: 100.7)
    try expectLineFollows(clock, around: 100.7)
    var interactive = try TransitionClock(duration: 1.1, interactive: true, at: 7)
    try expectLineFollows(interactive, around: 7)
    try interactive.update(progress: 0.3, at: 7.5)
    try expectLineFollows(interactive, around: 7.5)
    try interactive.resume(at: 7.6)
    try expectLineFollows(interactive, around: 7.6)
    #expect(clock.line != interactive.line)
  }

  @Test func aFinishOrCancelHasNoLineAndACompletedClockStandsStill() throws {
    var clock = try TransitionClock(duration: 0.5, interactive: true, at: 0)
    try clock.update(progress: 0.4, at: 0.1)
    try clock.finish(at: 0.2)
    #expect(clock.line == nil)
    var cancelled = try TransitionClock(duration: 0.5, at: 0)
    try cancelled.cancel(velocity: -2, at: 0.1)
    #expect(cancelled.line == nil)
    _ = clock.advance(to: 10)
    #expect(clock.state == .completed)
    try expectLineFollows(clock, around: 10)
    #expect(clock.line?.progress(at: 10) == 1)
  }
}
