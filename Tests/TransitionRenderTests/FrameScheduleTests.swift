import Testing

@testable import TransitionRender

/// Which recorded frame each output frame shows.
@Suite struct FrameScheduleTests {
  /// Frames of a virtual-clock recording: t = k / fps for k in 0...count-1.
  static func instants(fps: Double, count: Int) -> [Double] {
    (0..<count).map { Double($0) / fps }
  }

  @Test func theRecordingsOwnRateShowsEveryFrameOnce() {
    let schedule = FrameSchedule(
      instants: Self.instants(fps: 60, count: 61), rate: 60, start: nil, end: nil)
    #expect(schedule.frames == Array(0...60))
  }

  @Test func aSlowerRateShowsTheFrameOnScreenAtEachInstant() {
    // 60 fps to a GIF's 50: output k at k/50 s shows the last frame at or before it.
    let schedule = FrameSchedule(
      instants: Self.instants(fps: 60, count: 61), rate: 50, start: nil, end: nil)
    #expect(schedule.frames.count == 51)
    for (k, index) in schedule.frames.enumerated() {
      let instant = Double(k) / 50
      #expect(Double(index) / 60 <= instant + 1e-9)
      #expect(Double(index + 1) / 60 > instant + 1e-9 || index == 60)
    }
    #expect(schedule.frames.last == 60)
  }

  @Test func theClipEndsOnTheLastFrameEvenOffTheGrid() {
    // A 0.35 s transition at 25 fps: frames every 0.04 s and the last one at 0.35 s.
    let instants = (0...8).map { Double($0) * 0.04 } + [0.35]
    let schedule = FrameSchedule(instants: instants, rate: 25, start: nil, end: nil)
    #expect(schedule.frames == Array(0...9))
    // 60 fps to 33.3: the grid's last instant (0.99 s) shows frame 59; frame 60 follows.
    let resampled = FrameSchedule(
      instants: Self.instants(fps: 60, count: 61), rate: 100.0 / 3, start: nil, end: nil)
    #expect(resampled.frames.suffix(2) == [59, 60])
    #expect(resampled.frames.count == 35)
  }

  @Test func holdKeepsTheLastFrameOnScreen() {
    let schedule = FrameSchedule(
      instants: Self.instants(fps: 10, count: 3), rate: 10, start: nil, end: nil, hold: 0.5)
    #expect(schedule.frames == [0, 1, 2, 2, 2, 2, 2, 2])
  }

  @Test func aFasterRateRepeatsFrames() {
    let schedule = FrameSchedule(
      instants: Self.instants(fps: 10, count: 3), rate: 20, start: nil, end: nil)
    #expect(schedule.frames == [0, 0, 1, 1, 2])
  }

  @Test func startAndEndCutTheClipInSecondsFromTheFirstFrame() {
    // A recording whose clock did not start at 0.
    let instants = Self.instants(fps: 10, count: 11).map { $0 + 5 }
    let schedule = FrameSchedule(instants: instants, rate: 10, start: 0.2, end: 0.5)
    #expect(schedule.frames == [2, 3, 4, 5])
  }

  @Test func aStartPastTheEndGivesNoFrames() {
    let schedule = FrameSchedule(
      instants: Self.instants(fps: 10, count: 5), rate: 10, start: 3, end: nil)
    #expect(schedule.frames.isEmpty)
  }

  @Test func instantsWrittenWithRoundingStillLandOnTheirFrame() {
    // 0.1 + 0.2 is not 0.3 in binary; frame 3 must still be shown at k = 3.
    let instants = [0, 0.1, 0.2, 0.30000000000000004, 0.4]
    let schedule = FrameSchedule(instants: instants, rate: 10, start: nil, end: nil)
    #expect(schedule.frames == [0, 1, 2, 3, 4])
  }
}
