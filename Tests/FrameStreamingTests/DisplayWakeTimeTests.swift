import Testing

@testable import FrameStreaming

/// Where a display clock wakes to render a frame (``DisplayWakeTime``), alone: on the
/// coarsest shared grid with a point between the vblank before the frame's and the render's
/// start.
@Suite struct DisplayWakeTimeTests {
  @Test func aLongPeriodWakesOnTheEightMillisecondGrid() {
    // 60 Hz, the render due 4.5 ms before its vblank at 10.0167 s: the vblank before is at
    // 10.0000 s, and 10.008 s is the last 8 ms point before 10.0122 s.
    let vblank = 10.0 + 1.0 / 60
    let wake = DisplayWakeTime.wake(renderStart: vblank - 0.004_5, after: 10.0)
    #expect(abs(wake - 10.008) < 1e-9)
  }

  @Test func aShorterGapFallsToAFinerGrid() {
    // 144 Hz from a vblank at 10.0005 s: the next at 10.007444 s, the render due at 10.0029 s.
    // No 8 or 4 ms point lies in (10.0005, 10.0029]; 10.002 s is the 2 ms one.
    let previous = 10.000_5
    let vblank = previous + 1.0 / 144
    let wake = DisplayWakeTime.wake(renderStart: vblank - 0.004_5, after: previous)
    #expect(abs(wake - 10.002) < 1e-9)
    // Moved so that only a 0.5 ms point fits: (10.0014, 10.0016].
    let fine = DisplayWakeTime.wake(renderStart: 10.001_6, after: 10.001_4)
    #expect(abs(fine - 10.001_5) < 1e-9)
  }

  @Test func noGridPointInTheGapWakesWhenTheRenderIsDue() {
    // A gap shorter than the finest grid, with no point of it inside.
    #expect(DisplayWakeTime.wake(renderStart: 10.000_4, after: 10.000_1) == 10.000_4)
    // A lead longer than the period: the render is due before the vblank before.
    #expect(DisplayWakeTime.wake(renderStart: 9.99, after: 10.0) == 9.99)
  }

  @Test func wakesAreSharedGridPointsAfterThePreviousVblankAndNeverLate() {
    // Displays of many phases and rates: each wake lies in (previous vblank, render start],
    // at most the coarsest grid early, and on a point of one of the grids.
    var distinctWakes = Set<Double>()
    var renders = 0
    for hertz in stride(from: 48.0, through: 144, by: 4) {
      let period = 1 / hertz
      for phase in stride(from: 0.0, to: period, by: period / 10) {
        for index in 1...20 {
          let vblank = 100 + phase + Double(index) * period
          let start = vblank - 0.004 - 0.000_3
          let wake = DisplayWakeTime.wake(renderStart: start, after: vblank - period)
          #expect(wake <= start && start - wake < DisplayWakeTime.coarsestGrid)
          if start > vblank - period { #expect(wake > vblank - period) }
          let onAGrid = DisplayWakeTime.grids.contains { step in
            abs((wake / step).rounded() * step - wake) < 1e-9
          }
          #expect(onAGrid || wake == start)
          distinctWakes.insert((wake * 1e6).rounded())
          renders += 1
        }
      }
    }
    // 5,000 renders of 250 displays share far fewer wakes.
    #expect(distinctWakes.count * 4 < renders)
  }
}
