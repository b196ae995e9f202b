import Testing
import TransitionJSON
import TransitionKit

/// Following a finger: the drag sets progress, the grabbed point of the held layer is drawn
/// under the finger on any path, the release neither jumps nor changes speed, and the ends are
/// exact.
@Suite struct GestureFollowerTests {
  /// A card that shrinks, drops, turns a little and fades a backdrop as progress rises.
  static func timeline(gesture: TimelineGesture? = nil, perspective: Bool = false) throws
    -> Timeline
  {
    var card = LayerAttributes(frame: Rect(x: 0, y: 0, width: 400, height: 800))
    card.z = 1
    if perspective {
      card.perspective = -0.002
      card.rotationY = 0.5
    }
    var tracks = [
      PropertyTrack(.scale, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0.3))]),
      PropertyTrack(
        .translationY, keyframes: [Keyframe(start: 0, duration: 1, value: .number(200))]),
      PropertyTrack(
        .rotationZ,
        keyframes: [Keyframe(start: 0.2, duration: 0.6, value: .number(0.2), curve: .easeIn)]),
    ]
    if perspective {
      tracks.append(
        PropertyTrack(.rotationY, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
      )
    }
    return try Timeline(
      duration: 0.5, curve: .easeInEaseOut,
      layers: [
        TimelineLayer(
          id: "backdrop",
          initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 400, height: 800)),
          tracks: [
            PropertyTrack(.alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
          ]),
        TimelineLayer(id: "card", initial: card, tracks: tracks),
      ],
      gesture: gesture ?? TimelineGesture(hold: ["card"], axis: .y, range: 600))
  }

  /// A session's worth of state: clock, evaluator, follower and the frame drawn last.
  struct Drag {
    var clock: TransitionClock
    let evaluator: TimelineEvaluator
    var follower: GestureFollower
    var frame = Frame()

    init(_ timeline: Timeline, grab: Point, at time: Double = 0) throws {
      evaluator = TimelineEvaluator(timeline)
      clock = try TransitionClock(duration: timeline.duration, interactive: true, at: time)
      follower = try #require(GestureFollower(evaluator))
      _ = follower.move(to: grab, progress: 0, evaluator: evaluator)
    }

    /// The finger moves to `touch` at `time`; the drag sets progress.
    mutating func move(to touch: Point, at time: Double) throws {
      let progress = follower.move(
        to: touch, progress: clock.progress(at: time), evaluator: evaluator)
      try clock.update(progress: progress, at: time)
    }

    /// The frame the session draws at `time`.
    mutating func draw(at time: Double) -> Frame {
      evaluator.update(&frame, progress: clock.progress(at: time), time: time)
      follower.apply(to: &frame, at: time)
      return frame
    }

    /// Where the frame at `time` draws `point` (container coordinates of the card at rest).
    mutating func drawn(_ point: Point, at time: Double) throws -> Point {
      let frame = draw(at: time)
      let card = try #require(frame.layer("card"))
      return card.project(point)
    }
  }

  static func distance(_ a: Point, _ b: Point) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }

  @Test func progressIsTheDragAlongTheAxisOverTheRange() throws {
    var drag = try Drag(Self.timeline(), grab: Point(x: 200, y: 300))
    try drag.move(to: Point(x: 260, y: 500), at: 0.1)
    #expect(abs(drag.clock.progress(at: 0.1) - 200.0 / 600) < 1e-12)
    try drag.move(to: Point(x: -100, y: 500), at: 0.2)
    #expect(abs(drag.clock.progress(at: 0.2) - 200.0 / 600) < 1e-12, "sideways moves nothing")
    try drag.move(to: Point(x: 200, y: 100), at: 0.3)
    #expect(drag.clock.progress(at: 0.3) == 0, "dragging up clamps at 0")
    try drag.move(to: Point(x: 200, y: 2000), at: 0.4)
    #expect(drag.clock.progress(at: 0.4) == 1)

    let up = TimelineGesture(hold: ["card"], axis: .x, range: 300, direction: -1)
    #expect(
      up.progress(touch: Point(x: 50, y: 0), grab: Point(x: 200, y: 0), grabProgress: 0) == 0.5)
    let far = TimelineGesture(hold: [], axis: .distance, range: 100)
    #expect(far.progress(touch: Point(x: 30, y: 40), grab: .zero, grabProgress: 0.25) == 0.75)
  }

  @Test(arguments: [
    [Point(x: 200, y: 420), Point(x: 230, y: 560), Point(x: 330, y: 640), Point(x: 90, y: 700)],
    [Point(x: 10, y: 300), Point(x: -250, y: 310), Point(x: -400, y: 900), Point(x: 600, y: 1200)],
  ])
  func theGrabbedPointStaysUnderTheFingerOnAnyPath(path: [Point]) throws {
    let grab = Point(x: 120, y: 380)
    var drag = try Drag(Self.timeline(), grab: grab)
    for (step, touch) in path.enumerated() {
      let time = 0.01 * Double(step + 1)
      try drag.move(to: touch, at: time)
      let drawn = try drag.drawn(grab, at: time)
      #expect(Self.distance(drawn, touch) < 1e-6, "step \(step): \(drawn) is not \(touch)")
    }
    // The drag did shrink the card: it follows the timeline, not only the finger.
    let last = drag.draw(at: 1)
    let card = try #require(last.layer("card"))
    #expect(card.transform.m11 < 0.9)
  }

  @Test func aGrabOnATransformedLayerHoldsThePointUnderIt() throws {
    // The first touch comes once progress is 0.4: the card is shrunk and turned already.
    let timeline = try Self.timeline()
    let evaluator = TimelineEvaluator(timeline)
    var clock = try TransitionClock(duration: 0.5, interactive: true, at: 0)
    try clock.update(progress: 0.4, at: 0)
    var follower = try #require(GestureFollower(evaluator))
    let grab = Point(x: 150, y: 420)
    #expect(follower.move(to: grab, progress: 0.4, evaluator: evaluator) == 0.4)
    let card = evaluator.layerState(at: 1, progress: 0.4)
    let grabbed = try #require(card.unproject(grab))
    #expect(Self.distance(card.project(grabbed), grab) < 1e-9)
    for touch in [Point(x: 300, y: 500), Point(x: 40, y: 700)] {
      let progress = follower.move(to: touch, progress: 0.4, evaluator: evaluator)
      #expect(abs(progress - (0.4 + (touch.y - grab.y) / 600)) < 1e-12)
      var frame = evaluator.frame(progress: progress)
      follower.apply(to: &frame, at: 0)
      // The grabbed point, in unit coordinates of the card's (constant) frame.
      let drawn = try #require(frame.layer("card")).project(grabbed)
      #expect(Self.distance(drawn, touch) < 1e-6)
    }
  }

  /// A finger that moves down and sideways at `velocity` for 0.2 s at 120 Hz and lets go.
  static func flick(velocity: Point, finish: Bool) throws -> (Drag, release: Double, grab: Point) {
    let grab = Point(x: 200, y: 300)
    var drag = try Drag(Self.timeline(), grab: grab)
    var time = 0.0
    for step in 1...24 {
      time = Double(step) / 120
      try drag.move(
        to: Point(x: grab.x + velocity.x * time, y: grab.y + velocity.y * time), at: time)
    }
    let speed = drag.follower.progressVelocity(touchVelocity: velocity)
    if finish {
      try drag.clock.finish(velocity: speed, at: time)
    } else {
      try drag.clock.cancel(velocity: speed, at: time)
    }
    try drag.follower.release(
      touchVelocity: velocity, clock: drag.clock, at: time, evaluator: drag.evaluator)
    return (drag, time, grab)
  }

  @Test(arguments: [true, false])
  func theReleaseMovesOnWithTheFingersPositionAndSpeed(finish: Bool) throws {
    let velocity = Point(x: 150, y: 700)
    var (drag, release, grab) = try Self.flick(velocity: velocity, finish: finish)
    let finger = Point(x: grab.x + velocity.x * release, y: grab.y + velocity.y * release)
    #expect(Self.distance(try drag.drawn(grab, at: release), finger) < 1e-6, "no jump")
    // Both springs are stiff: a short step keeps their acceleration out of the difference.
    let h = 1e-6
    let later = try drag.drawn(grab, at: release + h)
    let now = try drag.drawn(grab, at: release)
    let drawnVelocity = Point(x: (later.x - now.x) / h, y: (later.y - now.y) / h)
    #expect(
      Self.distance(drawnVelocity, velocity) < 0.02 * 716,
      "drawn at \(drawnVelocity) pt/s, the finger left at \(velocity)")
  }

  @Test(arguments: [true, false])
  func theEndsAreExact(finish: Bool) throws {
    var (drag, _, _) = try Self.flick(velocity: Point(x: -300, y: 400), finish: finish)
    let end = try #require(drag.clock.endTime)
    let completed = drag.clock.advance(to: end)
    let completion = try #require(completed)
    #expect(completion.finished == finish)
    let drawn = drag.draw(at: end)
    let expected = drag.evaluator.frame(progress: finish ? 1 : 0, time: end)
    #expect(drawn == expected, "the last frame is the timeline's own end, bit for bit")
  }

  @Test func aPausedReleaseSettlesAndResumesWithoutAJump() throws {
    var (drag, release, grab) = try Self.flick(velocity: Point(x: 0, y: 500), finish: true)
    let pauseAt = release + 0.05
    let before = try drag.drawn(grab, at: pauseAt)
    try drag.clock.pause(at: pauseAt)
    try drag.follower.clockChanged(drag.clock, at: pauseAt)
    #expect(Self.distance(try drag.drawn(grab, at: pauseAt), before) < 1e-9)
    try drag.clock.reverse(at: pauseAt + 0.1)
    try drag.clock.resume(at: pauseAt + 0.1)
    let resumeBefore = try drag.drawn(grab, at: pauseAt + 0.1)
    try drag.follower.clockChanged(drag.clock, at: pauseAt + 0.1)
    #expect(Self.distance(try drag.drawn(grab, at: pauseAt + 0.1), resumeBefore) < 1e-9)
    let end = try #require(drag.clock.endTime)
    _ = drag.clock.advance(to: end)
    #expect(drag.draw(at: end) == drag.evaluator.frame(progress: 0, time: end))
  }

  @Test func perspectiveHoldsNothingButTheDragStillSetsProgress() throws {
    let timeline = try Self.timeline(perspective: true)
    var drag = try Drag(timeline, grab: Point(x: 100, y: 100))
    try drag.move(to: Point(x: 100, y: 400), at: 0.1)
    #expect(drag.clock.progress(at: 0.1) == 0.5)
    let drawn = drag.draw(at: 0.1)
    #expect(drawn == drag.evaluator.frame(progress: 0.5, time: 0.1))
  }

  @Test func withoutATouchTheFrameIsTheTimelines() throws {
    let evaluator = TimelineEvaluator(try Self.timeline())
    let follower = try #require(GestureFollower(evaluator))
    var frame = evaluator.frame(progress: 0.3)
    follower.apply(to: &frame, at: 0)
    #expect(frame == evaluator.frame(progress: 0.3))
    #expect(evaluator.animatedFields[1].contains(.transform))
    #expect(
      GestureFollower(TimelineEvaluator(try Timeline(duration: 1, layers: Self.timeline().layers)))
        == nil)
  }

  @Test func anOffsetSpringStartsAsToldAndEndsAtZero() throws {
    let spring = try OffsetSpring(
      offset: Point(x: 30, y: -12), velocity: Point(x: -400, y: 90), response: 0.3, start: 2,
      end: 2.4)
    #expect(spring.value(at: 2) == Point(x: 30, y: -12))
    #expect(Self.distance(spring.velocity(at: 2), Point(x: -400, y: 90)) < 1e-9)
    #expect(spring.value(at: 2.4) == .zero)
    #expect(spring.value(at: 5) == .zero)
    let h = 1e-6
    let slope = Point(
      x: (spring.value(at: 2.2 + h).x - spring.value(at: 2.2 - h).x) / (2 * h),
      y: (spring.value(at: 2.2 + h).y - spring.value(at: 2.2 - h).y) / (2 * h))
    #expect(Self.distance(slope, spring.velocity(at: 2.2)) < 1e-3)
    #expect(abs(spring.value(at: 2.4 - 1e-9).x) < 0.05, "nothing left to jump at the end")
  }

  @Test func theGestureRoundTripsThroughJSONAndIsValidated() throws {
    let timeline = try Self.timeline(
      gesture: TimelineGesture(
        hold: ["card", "backdrop"], axis: .distance, range: 250, direction: -1))
    let decoded = try Timeline(json: timeline.json)
    #expect(decoded == timeline)
    #expect(decoded.gesture?.hold == ["card", "backdrop"])

    func error(_ gesture: JSONValue) -> EngineError? {
      guard case .object(var members) = timeline.json else { return nil }
      members["gesture"] = gesture
      do {
        _ = try Timeline(json: .object(members))
        return nil
      } catch { return error }
    }
    let unknown = error(["hold": ["nobody"], "axis": "y", "range": 100])
    #expect(unknown?.message.contains("gesture.hold[0] \"nobody\"") == true)
    #expect(
      error(["hold": ["card"], "axis": "y", "range": 0])?.message.contains("gesture.range") == true)
    #expect(
      error(["hold": ["card"], "axis": "y", "range": 10, "direction": 2])?.message.contains(
        "gesture.direction") == true)
    #expect(
      error(["hold": ["card"], "axis": "z", "range": 10])?.message.contains("gesture.axis") == true)
    #expect(error(["hold": ["card", "card"], "axis": "y", "range": 10])?.code == .duplicate)
    #expect(
      error(["hold": ["card"], "axis": "y", "range": 10, "speed": 1])?.message.contains("speed")
        == true)
    #expect(
      error(["hold": ["card"], "axis": "y", "range": 10, "follow": "edge"])?.message.contains(
        "gesture.follow") == true)
    let axisOnly = try Self.timeline(
      gesture: TimelineGesture(hold: ["card"], axis: .y, range: 600, followsAxisOnly: true))
    #expect(try Timeline(json: axisOnly.json) == axisOnly)
  }

  /// `follow: axis`: the grabbed point follows the finger along the axis alone; across it the
  /// layer stays where the timeline draws it.
  @Test func anAxisGestureHoldsThePointAlongItsAxisOnly() throws {
    let gesture = TimelineGesture(hold: ["card"], axis: .y, range: 600, followsAxisOnly: true)
    let grab = Point(x: 120, y: 380)
    var drag = try Drag(Self.timeline(gesture: gesture), grab: grab)
    for (step, touch) in [Point(x: 200, y: 420), Point(x: 40, y: 560)].enumerated() {
      let time = 0.01 * Double(step + 1)
      try drag.move(to: touch, at: time)
      let drawn = try drag.drawn(grab, at: time)
      let unheld = drag.evaluator.layerState(at: 1, progress: drag.clock.progress(at: time))
      #expect(abs(drawn.y - touch.y) < 1e-6, "step \(step): \(drawn) is not at y \(touch.y)")
      #expect(abs(drawn.x - unheld.project(grab).x) < 1e-6, "step \(step): moved across")
    }
  }
}
