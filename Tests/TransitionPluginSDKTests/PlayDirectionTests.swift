import Testing
import TransitionPluginSDK

/// Playing a motion designed forward (push, present) backward (pop, dismiss) mirrors it in
/// time: the backward value at relative time 1 − u is the forward value at u.
@Suite struct PlayDirectionTests {
  private static let container = Rect(x: 0, y: 0, width: 100, height: 200)

  /// The forward value of a linear change from `start` to `end` over [s, e] at time `u`,
  /// written out by hand.
  private static func forwardReference(
    start: Double, end: Double, window: ClosedRange<Double>, at u: Double
  ) -> Double {
    if u <= window.lowerBound { return start }
    if u >= window.upperBound { return end }
    let fraction = (u - window.lowerBound) / (window.upperBound - window.lowerBound)
    return start + (end - start) * fraction
  }

  /// A one-layer timeline that plays `motion` in `direction`, and an evaluator for it.
  private static func evaluator(_ motion: Motion, _ direction: PlayDirection) throws
    -> TimelineEvaluator
  {
    var layer = TimelineLayer(id: "card", initial: LayerAttributes(frame: container))
    layer.play(motion, direction)
    return TimelineEvaluator(try Timeline(duration: 0.5, layers: [layer]))
  }

  @Test func operationsChooseTheirDirection() {
    #expect(PlayDirection(.push) == .forward)
    #expect(PlayDirection(.present) == .forward)
    #expect(PlayDirection(.pop) == .backward)
    #expect(PlayDirection(.dismiss) == .backward)
  }

  @Test func windowsAndInstantsMirrorOnlyBackward() {
    #expect(PlayDirection.forward.window(0.2...0.6) == 0.2...0.6)
    #expect(PlayDirection.backward.window(0.2...0.6) == 0.4...0.8)
    #expect(PlayDirection.backward.window(0...1) == 0...1)
    #expect(PlayDirection.forward.instant(0.3) == 0.3)
    #expect(PlayDirection.backward.instant(0.25) == 0.75)
  }

  @Test func playSetsTheInitialValueAndOneTrack() throws {
    let motion = Motion(.alpha, from: 0.2, to: 0.8, over: 0.2...0.6)
    var forward = TimelineLayer(id: "a", initial: LayerAttributes(frame: Self.container))
    forward.play(motion, .forward)
    #expect(forward.initial.alpha == 0.2)
    #expect(forward.tracks.map(\.property) == [.alpha])
    let forwardKeyframe = try #require(forward.tracks.first?.keyframes.first)
    #expect(forward.tracks.first?.keyframes.count == 1)
    #expect(forwardKeyframe.value == .number(0.8))
    #expect(forwardKeyframe.relativeStart == 0.2)
    #expect(abs(forwardKeyframe.relativeDuration - 0.4) < 1e-12)
    var backward = TimelineLayer(id: "a", initial: LayerAttributes(frame: Self.container))
    backward.play(motion, .backward)
    #expect(backward.initial.alpha == 0.8)
    #expect(backward.tracks.count == 1)
    let keyframe = try #require(backward.tracks.first?.keyframes.first)
    #expect(keyframe.value == .number(0.2))
    #expect(abs(keyframe.relativeStart - 0.4) < 1e-12)
    #expect(abs(keyframe.relativeDuration - 0.4) < 1e-12)
  }

  @Test(arguments: [0.0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0])
  func popAtOneMinusTShowsPushAtT(t: Double) throws {
    let window = 0.2...0.6
    let motion = Motion(.alpha, from: 0.2, to: 0.8, over: window)
    let push = try Self.evaluator(motion, PlayDirection(.push))
    let pop = try Self.evaluator(motion, PlayDirection(.pop))
    let expected = Self.forwardReference(start: 0.2, end: 0.8, window: window, at: t)
    let pushed = try #require(push.frame(progress: t).layer("card")).alpha
    let popped = try #require(pop.frame(progress: 1 - t).layer("card")).alpha
    #expect(abs(pushed - expected) < 1e-9)
    #expect(abs(popped - expected) < 1e-9)
  }

  @Test func pointMotionsMirrorToo() throws {
    let motion = Motion(
      .position, from: .point(Point(x: 50, y: 100)), to: .point(Point(x: 150, y: 100)))
    let present = try Self.evaluator(motion, .forward)
    let dismiss = try Self.evaluator(motion, .backward)
    for u in [0.0, 0.25, 0.5, 1.0] {
      let presented = try #require(present.frame(progress: u).layer("card")).frame
      let dismissed = try #require(dismiss.frame(progress: 1 - u).layer("card")).frame
      // The layer is 100 wide, so its x is the centre's x minus 50.
      #expect(abs(presented.x - 100 * u) < 1e-9)
      #expect(abs(dismissed.x - 100 * u) < 1e-9)
    }
  }
}
