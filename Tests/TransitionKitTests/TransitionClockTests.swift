import Testing
import TransitionKit

/// The transition clock: linear running, interaction, pause and reversal without jumps,
/// finishing and cancelling like `UIPercentDrivenInteractiveTransition`, exactly-once completion
/// and typed errors for operations that make no sense.
@Suite struct TransitionClockTests {
  // MARK: - Running

  @Test func runningProgressIsElapsedOverDuration() throws {
    let clock = try TransitionClock(duration: 2, at: 10)
    #expect(clock.state == .running)
    #expect(clock.progress(at: 10) == 0)
    #expect(clock.progress(at: 10.5) == 0.25)
    #expect(clock.progress(at: 11.5) == 0.75)
    #expect(clock.progress(at: 13) == 1)
    #expect(clock.progress(at: 9) == 0)
    #expect(clock.velocity(at: 11) == 0.5)
    #expect(clock.endTime == 12)
  }

  @Test func completionIsReportedExactlyOnceAtTheEnd() throws {
    var clock = try TransitionClock(duration: 2, at: 10)
    #expect(clock.advance(to: 11) == nil)
    #expect(clock.advance(to: 11.999) == nil)
    let completion = clock.advance(to: 12.5)
    #expect(completion?.finished == true)
    #expect(completion?.time == 12)
    #expect(clock.state == .completed)
    #expect(clock.progress(at: 12.5) == 1)
    #expect(clock.advance(to: 13) == nil)
    #expect(clock.advance(to: 100) == nil)
  }

  @Test(arguments: [(3.7, 0.35), (1000.1, 0.35), (0.123, 0.3), (17.17, 1.1), (5.0, 0.45)])
  func runningToTheEndAlwaysFinishes(start: Double, duration: Double) throws {
    // The end time, start + duration, is rounded; the clock must still report a finished run.
    var clock = try TransitionClock(duration: duration, at: start)
    let end = try #require(clock.endTime)
    let completion = clock.advance(to: end)
    #expect(completion?.finished == true)
    #expect(clock.progress(at: end) == 1)
  }

  @Test func runningToTheEndAfterAPauseFinishes() throws {
    var clock = try TransitionClock(duration: 0.35, at: 3.7)
    try clock.pause(at: 3.8)
    try clock.resume(at: 7.31)
    let end = try #require(clock.endTime)
    #expect(clock.advance(to: end)?.finished == true)
  }

  // MARK: - Interaction

  @Test func interactiveProgressFollowsUpdates() throws {
    var clock = try TransitionClock(duration: 2, interactive: true, at: 0)
    #expect(clock.state == .interactive)
    #expect(clock.progress(at: 5) == 0)
    #expect(clock.endTime == nil)
    for (time, progress) in [(1.0, 0.25), (1.5, 0.8), (2.0, 0.1), (3.0, 1.0), (4.0, 0.0)] {
      try clock.update(progress: progress, at: time)
      #expect(clock.progress(at: time) == progress)
      #expect(clock.progress(at: time + 10) == progress)
      #expect(clock.velocity(at: time) == 0)
    }
    #expect(clock.advance(to: 1000) == nil)
  }

  @Test func updateOutsideTheUnitIntervalIsRejected() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 0.3, at: 0.1)
    for bad in [-0.01, 1.01] {
      #expect(caughtEngineError { try clock.update(progress: bad, at: 0.2) }?.code == .outOfRange)
    }
    #expect(clock.progress(at: 0.2) == 0.3)
  }

  @Test func updateWhenNotInteractiveIsAnInvalidState() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    #expect(caughtEngineError { try clock.update(progress: 0.5, at: 0.1) }?.code == .invalidState)
    try clock.pause(at: 0.2)
    #expect(caughtEngineError { try clock.update(progress: 0.5, at: 0.3) }?.code == .invalidState)
  }

  @Test func resumingAnInteractiveTransitionRunsForwards() throws {
    var clock = try TransitionClock(duration: 2, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 1)
    try clock.resume(at: 3)
    #expect(clock.state == .running)
    #expect(clock.progress(at: 3) == 0.5)
    #expect(clock.progress(at: 3.5) == 0.75)
    #expect(clock.endTime == 4)
  }

  // MARK: - Pause, resume, reverse, seek

  @Test func pauseHoldsAndResumeContinues() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    try clock.pause(at: 0.3)
    #expect(clock.state == .paused)
    #expect(abs(clock.progress(at: 0.3) - 0.3) < 1e-15)
    #expect(clock.progress(at: 50) == clock.progress(at: 0.3))
    #expect(clock.endTime == nil)
    #expect(clock.advance(to: 100) == nil)
    try clock.resume(at: 5)
    #expect(clock.state == .running)
    #expect(abs(clock.progress(at: 5.2) - 0.5) < 1e-12)
    #expect(abs((clock.endTime ?? 0) - 5.7) < 1e-12)
  }

  @Test func reversingWhileRunningHasNoJump() throws {
    var clock = try TransitionClock(duration: 2, at: 0)
    let before = clock.progress(at: 0.5)
    try clock.reverse(at: 0.5)
    #expect(clock.state == .running)
    #expect(abs(clock.progress(at: 0.5) - before) < 1e-12)
    #expect(abs(clock.progress(at: 0.5 + 1e-9) - 0.25) < 1e-9)
    #expect(clock.velocity(at: 0.6) == -0.5)
    #expect(abs(clock.progress(at: 0.7) - 0.15) < 1e-12)
    #expect(clock.endTime == 1)
    let completion = clock.advance(to: 1.2)
    #expect(completion?.finished == false)
    #expect(completion?.time == 1)
    #expect(clock.progress(at: 1.2) == 0)
  }

  @Test func reversingTwiceRunsForwardsAgain() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    try clock.reverse(at: 0.4)
    try clock.reverse(at: 0.6)
    #expect(abs(clock.progress(at: 0.6) - 0.2) < 1e-12)
    #expect(abs(clock.progress(at: 0.8) - 0.4) < 1e-12)
    #expect(clock.advance(to: 2)?.finished == true)
  }

  @Test func pausedReversalResumesBackwards() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    try clock.pause(at: 0.6)
    try clock.reverse(at: 1)
    #expect(clock.state == .paused)
    try clock.resume(at: 2)
    #expect(abs(clock.progress(at: 2.1) - 0.5) < 1e-12)
    #expect(clock.advance(to: 5)?.finished == false)
  }

  @Test func seekJumpsAndKeepsRunning() throws {
    var clock = try TransitionClock(duration: 2, at: 0)
    try clock.seek(progress: 0.5, at: 0.2)
    #expect(clock.progress(at: 0.2) == 0.5)
    #expect(abs(clock.progress(at: 0.6) - 0.7) < 1e-12)
    #expect(abs((clock.endTime ?? 0) - 1.2) < 1e-12)
    #expect(caughtEngineError { try clock.seek(progress: 1.5, at: 0.3) }?.code == .outOfRange)
    try clock.pause(at: 0.6)
    try clock.seek(progress: 0.1, at: 0.7)
    #expect(clock.state == .paused)
    #expect(clock.progress(at: 3) == 0.1)
  }

  // MARK: - Finish and cancel

  @Test func finishUsesCompletionSpeedAndEaseInEaseOut() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    #expect(clock.completionSpeed == 1)
    #expect(clock.completionCurve == .easeInEaseOut)
    try clock.update(progress: 0.4, at: 9)
    clock.completionSpeed = 2
    try clock.finish(at: 10)
    #expect(clock.state == .finishing)
    // Remaining time (1 − 0.4) × 1 / 2 = 0.3 s.
    #expect(abs((clock.endTime ?? 0) - 10.3) < 1e-12)
    #expect(clock.progress(at: 10) == 0.4)
    for local in [0.25, 0.5, 0.8] {
      let expected = 0.4 + 0.6 * referenceBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1, at: local)
      #expect(abs(clock.progress(at: 10 + 0.3 * local) - expected) < 1e-9)
    }
    #expect(clock.advance(to: 10.4)?.finished == true)
    #expect(clock.progress(at: 10.4) == 1)
  }

  @Test func cancelTakesTheRemainingDistanceOverSpeed() throws {
    var clock = try TransitionClock(duration: 2, at: 0)
    clock.completionSpeed = 0.5
    clock.completionCurve = .linear
    try clock.cancel(at: 0.8)
    #expect(clock.state == .cancelling)
    // Progress 0.4; remaining time 0.4 × 2 / 0.5 = 1.6 s, linearly.
    #expect(abs((clock.endTime ?? 0) - 2.4) < 1e-12)
    #expect(abs(clock.progress(at: 1.6) - 0.2) < 1e-12)
    let completion = clock.advance(to: 3)
    #expect(completion?.finished == false)
    #expect(abs((completion?.time ?? 0) - 2.4) < 1e-12)
  }

  @Test func finishAtTheEndCompletesAtOnce() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 1, at: 1)
    try clock.finish(at: 2)
    #expect(clock.state == .completed)
    let completion = clock.advance(to: 2)
    #expect(completion?.finished == true)
    #expect(completion?.time == 2)
  }

  @Test func reversingWhileFinishingCancelsWithoutAJump() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 0)
    try clock.finish(at: 1)
    let progress = clock.progress(at: 1.2)
    try clock.reverse(at: 1.2)
    #expect(clock.state == .cancelling)
    #expect(clock.progress(at: 1.2) == progress)
    #expect(clock.advance(to: 10)?.finished == false)
  }

  @Test(arguments: [0.4, -1.5, 3.0])
  func releaseVelocityCarriesOverWithoutAJump(velocity: Double) throws {
    var clock = try TransitionClock(duration: 0.5, interactive: true, at: 0)
    try clock.update(progress: 0.4, at: 1)
    try clock.finish(velocity: velocity, at: 2)
    #expect(abs(clock.progress(at: 2) - 0.4) < 1e-12)
    #expect(abs(clock.velocity(at: 2) - velocity) < 1e-9)
    let h = 1e-8
    let slope = (clock.progress(at: 2 + h) - clock.progress(at: 2)) / h
    #expect(abs(slope - velocity) < 1e-4 * max(1, abs(velocity)))
    let end = try #require(clock.endTime)
    #expect(clock.advance(to: end)?.finished == true)
    #expect(clock.progress(at: end) == 1)
  }

  @Test func cancelWithVelocityCarriesOverAndEndsAtZero() throws {
    var clock = try TransitionClock(duration: 0.5, interactive: true, at: 0)
    try clock.update(progress: 0.6, at: 1)
    try clock.cancel(velocity: -2, at: 2)
    #expect(abs(clock.progress(at: 2) - 0.6) < 1e-12)
    #expect(abs(clock.velocity(at: 2) + 2) < 1e-9)
    let end = try #require(clock.endTime)
    #expect(clock.advance(to: end)?.finished == false)
    #expect(clock.progress(at: end).bitPattern == 0.0.bitPattern)
  }

  @Test(arguments: [nil, -0.7] as [Double?])
  func cancelledTransitionEndsOnItsFirstFrameBitForBit(velocity: Double?) throws {
    let evaluator = TimelineEvaluator(try flipTimeline())
    let first = evaluator.frame(progress: 0, time: 0)
    var clock = try TransitionClock(duration: 0.6, at: 0)
    #expect(evaluator.frame(progress: clock.progress(at: 0.33), time: 0).layers != first.layers)
    try clock.cancel(velocity: velocity, at: 0.33)
    let end = try #require(clock.endTime)
    let completion = clock.advance(to: end + 1)
    #expect(completion?.finished == false)
    let progress = clock.progress(at: end + 1)
    #expect(progress.bitPattern == 0.0.bitPattern)
    let last = evaluator.frame(progress: progress, time: 0)
    #expect(last == first)
    for (a, b) in zip(last.layers, first.layers) {
      #expect(a.transform.elements.map(\.bitPattern) == b.transform.elements.map(\.bitPattern))
      #expect(a.frame.x.bitPattern == b.frame.x.bitPattern)
      #expect(a.alpha.bitPattern == b.alpha.bitPattern)
    }
    // And the first frame is the layers' initial state: the cover lies flat, so its constant
    // perspective leaves it at the identity.
    #expect(first.layers[0].transform == .identity)
    #expect(first.layers[1].frame == Rect(x: 0, y: 0, width: 390, height: 844))
    #expect(first.layers[1].alpha == 1)
  }

  // MARK: - Errors

  @Test func operationsAfterCompletionAreInvalid() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    _ = clock.advance(to: 1)
    #expect(clock.state == .completed)
    var copy = clock
    let errors: [EngineError?] = [
      caughtEngineError { try copy.update(progress: 0.5, at: 2) },
      caughtEngineError { try copy.pause(at: 2) },
      caughtEngineError { try copy.resume(at: 2) }, caughtEngineError { try copy.reverse(at: 2) },
      caughtEngineError { try copy.seek(progress: 0.5, at: 2) },
      caughtEngineError { try copy.finish(at: 2) },
      caughtEngineError { try copy.cancel(at: 2) },
      caughtEngineError { try copy.finish(velocity: 1, at: 2) },
    ]
    for error in errors {
      #expect(error?.code == .invalidState)
      #expect(error?.message.contains("completed") == true)
    }
    #expect(copy.state == .completed)
    #expect(copy.progress(at: 3) == 1)
  }

  @Test func operationsInTheWrongStateAreInvalid() throws {
    var running = try TransitionClock(duration: 1, at: 0)
    #expect(caughtEngineError { try running.resume(at: 0.1) }?.code == .invalidState)
    var interactive = try TransitionClock(duration: 1, interactive: true, at: 0)
    #expect(caughtEngineError { try interactive.pause(at: 0.1) }?.code == .invalidState)
    #expect(caughtEngineError { try interactive.reverse(at: 0.1) }?.code == .invalidState)
  }

  @Test func badClockParametersAreRejected() {
    #expect(
      caughtEngineError { _ = try TransitionClock(duration: .nan, at: 0) }?.code == .nonFinite)
    #expect(
      caughtEngineError { _ = try TransitionClock(duration: .infinity, at: 0) }?.code == .nonFinite)
    #expect(caughtEngineError { _ = try TransitionClock(duration: 0, at: 0) }?.code == .outOfRange)
    #expect(caughtEngineError { _ = try TransitionClock(duration: -1, at: 0) }?.code == .outOfRange)
    #expect(
      caughtEngineError { _ = try TransitionClock(duration: 1, at: .nan) }?.code == .nonFinite)
  }

  @Test func nonFiniteArgumentsAreRejectedAndChangeNothing() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 0)
    let calls: [(String, EngineError?)] = [
      ("update progress", caughtEngineError { try clock.update(progress: .nan, at: 1) }),
      ("update time", caughtEngineError { try clock.update(progress: 0.6, at: .nan) }),
      ("seek progress", caughtEngineError { try clock.seek(progress: .nan, at: 1) }),
      ("seek time", caughtEngineError { try clock.seek(progress: 0.6, at: .infinity) }),
      ("finish velocity", caughtEngineError { try clock.finish(velocity: .nan, at: 1) }),
      ("finish time", caughtEngineError { try clock.finish(at: .nan) }),
      ("cancel velocity", caughtEngineError { try clock.cancel(velocity: -.infinity, at: 1) }),
      ("cancel time", caughtEngineError { try clock.cancel(at: .nan) }),
      ("resume time", caughtEngineError { try clock.resume(at: .nan) }),
    ]
    for (name, error) in calls {
      #expect(error?.code == .nonFinite, "\(name)")
    }
    #expect(clock.state == .interactive)
    #expect(clock.progress(at: 1) == 0.5)
  }

  @Test func nonFiniteTimesAreRejectedWhileRunning() throws {
    var clock = try TransitionClock(duration: 1, at: 0)
    #expect(caughtEngineError { try clock.pause(at: .nan) }?.code == .nonFinite)
    #expect(caughtEngineError { try clock.reverse(at: .nan) }?.code == .nonFinite)
    #expect(clock.state == .running)
    #expect(clock.progress(at: 0.5) == 0.5)
  }

  @Test func releaseVelocityBeyondTheBoundChangesNothing() throws {
    // 1e308 per second (which would overflow the spring's normalised velocity) is far beyond
    // maximumReleaseVelocity.
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 0)
    #expect(caughtEngineError { try clock.finish(velocity: 1e308, at: 1) }?.code == .outOfRange)
    #expect(clock.state == .interactive)
    #expect(clock.progress(at: 1) == 0.5)
    try clock.finish(at: 1)
    #expect(clock.advance(to: 5)?.finished == true)
  }

  @Test func seekWhileFinishingWithABadSpeedChangesNothing() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 0)
    clock.completionCurve = .linear
    try clock.finish(at: 1)
    clock.completionSpeed = 0
    #expect(caughtEngineError { try clock.seek(progress: 0.1, at: 1.25) }?.code == .outOfRange)
    #expect(clock.state == .finishing)
    // Still the finish that began at 1: half of the remaining 0.5 s has passed.
    #expect(abs(clock.progress(at: 1.25) - 0.75) < 1e-12)
    #expect(clock.endTime == 1.5)
  }

  @Test func badCompletionSpeedIsRejected() throws {
    var clock = try TransitionClock(duration: 1, interactive: true, at: 0)
    clock.completionSpeed = 0
    #expect(caughtEngineError { try clock.finish(at: 1) }?.code == .outOfRange)
    clock.completionSpeed = .nan
    #expect(caughtEngineError { try clock.cancel(at: 1) }?.code == .nonFinite)
    #expect(clock.state == .interactive)
  }

  // MARK: - Helpers

  /// A flip with curves, a spring, matrices and perspective, over a full-screen backdrop.
  private func flipTimeline() throws -> Timeline {
    var cover = LayerAttributes(frame: Rect(x: 20, y: 100, width: 170, height: 170))
    cover.anchor = Point(x: 0, y: 0.5)
    cover.perspective = -1.0 / 500
    let coverTracks = [
      PropertyTrack(
        .rotationY,
        keyframes: [Keyframe(start: 0, duration: 1, value: .number(-.pi), curve: .easeInEaseOut)]),
      PropertyTrack(
        .transform,
        keyframes: [
          Keyframe(
            start: 0, duration: 0.7,
            value: .transform(Transform3D.scale(x: 1.3, y: 1.3).translatedBy(x: 12, y: -40)),
            curve: .spring(try Spring(duration: 0.3, bounce: 0.2)))
        ]),
    ]
    let backdrop = LayerAttributes(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    let backdropTracks = [
      PropertyTrack(
        .alpha,
        keyframes: [Keyframe(start: 0.2, duration: 0.5, value: .number(0.3), curve: .easeOut)]),
      PropertyTrack(
        .position,
        keyframes: [Keyframe(start: 0, duration: 1, value: .point(Point(x: 100, y: 422)))]),
    ]
    return try Timeline(
      duration: 0.6, curve: .systemDefault,
      layers: [
        TimelineLayer(id: "cover", initial: cover, tracks: coverTracks),
        TimelineLayer(id: "backdrop", initial: backdrop, tracks: backdropTracks),
      ])
  }

}
