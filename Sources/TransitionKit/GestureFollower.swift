/// Follows one finger for one session: the grab, the progress the drag sets, and the offset
/// that keeps the held layers under the finger, then springs away after the release
/// (docs/protocol.md, "Touch"). Pure: times are the caller's monotonic clock.
///
/// - At the grab the follower takes the grabbed point in the first held layer's own
///   coordinates (unit coordinates of its frame), by inverting the layer's drawn transform at
///   the grab's progress. A transform with perspective cannot be inverted on the plane: the
///   drag then sets progress but holds nothing.
/// - While following, every frame's held layers get the container translation
///   `touch − q(p)`, where `q(p)` is where the timeline at progress `p` draws the grabbed
///   point, so that point is drawn exactly under the finger, whatever the path.
/// - At the release the translation becomes an ``OffsetSpring`` that starts at the finger's
///   offset with velocity `touchVelocity − dq/dt`, so the drawn point neither jumps nor changes
///   speed, and that is exactly zero when the clock completes. Its response is 0.68 × the time
///   the clock takes to complete (at least 0.05 s, the clock's own rule for a released
///   spring), or ``settlingResponse`` while the clock is paused.
public struct GestureFollower: Sendable {
  public let gesture: TimelineGesture
  /// The timeline's layer indices the finger holds.
  private let held: [Int]
  /// Where the finger went down, and the progress then.
  public private(set) var grab: Point?
  public private(set) var grabProgress: Double = 0
  /// Where the finger is now (the last touch); stays after the release.
  public private(set) var touch: Point?
  /// The grabbed point in unit coordinates of the first held layer's frame; nil when nothing
  /// is held.
  private var grabbed: Point?
  /// The offset after the release; nil while following or before any touch.
  private var release: OffsetSpring?

  /// The spring's response while the clock has no end (paused), seconds.
  public static let settlingResponse = 0.35

  /// A follower for timelines with a gesture; nil for one without.
  public init?(_ evaluator: TimelineEvaluator) {
    guard let gesture = evaluator.gesture else { return nil }
    self.gesture = gesture
    held = evaluator.heldLayers
  }

  /// True from the first touch until the release.
  public var isFollowing: Bool { touch != nil && release == nil }

  /// Whether the follower has ever been touched.
  public var isTouched: Bool { touch != nil }

  /// The finger is at `point`; the first touch is the grab, at `progress` (the clock's progress
  /// now).
  /// - Returns: the progress the drag sets.
  public mutating func move(
    to point: Point, progress: Double, evaluator: TimelineEvaluator
  ) -> Double {
    if grab == nil || release != nil {
      grab = point
      grabProgress = progress
      release = nil
      grabbed = held.first.flatMap { index in
        let state = evaluator.layerState(at: index, progress: progress)
        return state.unproject(point).map { Self.unit($0, in: state.frame) }
      }
    }
    touch = point
    guard let grab else { return progress }
    return gesture.progress(touch: point, grab: grab, grabProgress: grabProgress)
  }

  /// The progress velocity, per second, of a finger leaving at `touchVelocity`.
  public func progressVelocity(touchVelocity: Point) -> Double {
    guard let grab, let touch else { return 0 }
    return gesture.progressVelocity(
      touchVelocity: touchVelocity, offset: Point(x: touch.x - grab.x, y: touch.y - grab.y))
  }

  /// The finger left at `touchVelocity` (points per second) at `time`, and `clock` now moves
  /// on its own: the offset starts springing away. Nothing happens before a touch or after a
  /// release.
  /// - Throws: `EngineError` for a non-finite velocity.
  public mutating func release(
    touchVelocity: Point, clock: TransitionClock, at time: Double, evaluator: TimelineEvaluator
  ) throws(EngineError) {
    guard isFollowing, let touch else { return }
    guard let index = held.first, let grabbed else {
      release = try OffsetSpring(
        offset: .zero, velocity: .zero, response: Self.settlingResponse, start: time, end: time)
      return
    }
    let progress = clock.progress(at: time)
    let drawn = Self.drawnPoint(grabbed, evaluator.layerState(at: index, progress: progress))
    let slope = Self.slope(of: grabbed, layer: index, at: progress, evaluator: evaluator)
    let rate = clock.velocity(at: time)
    release = try Self.spring(
      offset: gesture.followed(Point(x: touch.x - drawn.x, y: touch.y - drawn.y)),
      velocity: gesture.followed(
        Point(x: touchVelocity.x - slope.x * rate, y: touchVelocity.y - slope.y * rate)),
      clock: clock, at: time)
  }

  /// The clock changed after the release (paused, resumed, reversed, sought): the spring goes
  /// on from where it is, towards the clock's new end.
  public mutating func clockChanged(_ clock: TransitionClock, at time: Double) throws(EngineError) {
    guard let current = release else { return }
    release = try Self.spring(
      offset: current.value(at: time), velocity: current.velocity(at: time), clock: clock,
      at: time)
  }

  /// The container translation of the held layers at `time`, in a frame whose first held
  /// layer is drawn as `state`.
  public func offset(at time: Double, heldState state: LayerState) -> Point {
    if let release { return release.value(at: time) }
    guard let touch, let grabbed else { return .zero }
    let drawn = Self.drawnPoint(grabbed, state)
    return gesture.followed(Point(x: touch.x - drawn.x, y: touch.y - drawn.y))
  }

  /// Moves the held layers of `frame` (a frame of the follower's timeline, evaluated without
  /// any offset) by the offset at `time`. Allocation-free; a zero offset changes no bit.
  public func apply(to frame: inout Frame, at time: Double) {
    guard let first = held.first, first < frame.layers.count, touch != nil else { return }
    let offset = offset(at: time, heldState: frame.layers[first])
    guard offset.x != 0 || offset.y != 0, offset.x.isFinite, offset.y.isFinite else { return }
    frame.layers.withUnsafeMutableBufferPointer { layers in
      for index in held where index < layers.count {
        layers[index].transform.concatenateTranslation(x: offset.x, y: offset.y, z: 0)
      }
    }
  }

  private static func spring(
    offset: Point, velocity: Point, clock: TransitionClock, at time: Double
  ) throws(EngineError) -> OffsetSpring {
    let end = clock.state == .completed ? time : clock.endTime
    let response = end.map { max(($0 - time) * 0.68, 0.05) } ?? settlingResponse
    return try OffsetSpring(
      offset: offset, velocity: velocity, response: response, start: time, end: end)
  }

  /// `point` in unit coordinates of `frame` (an empty side maps to 0).
  private static func unit(_ point: Point, in frame: Rect) -> Point {
    Point(
      x: frame.width > 0 ? (point.x - frame.x) / frame.width : 0,
      y: frame.height > 0 ? (point.y - frame.y) / frame.height : 0)
  }

  /// Where `state` draws the point at unit coordinates `unit` of its frame.
  private static func drawnPoint(_ unit: Point, _ state: LayerState) -> Point {
    state.project(
      Point(
        x: state.frame.x + unit.x * state.frame.width,
        y: state.frame.y + unit.y * state.frame.height))
  }

  /// dq/dp: how fast the drawn grabbed point moves with progress (a central difference, one
  /// sided at the ends).
  private static func slope(
    of unit: Point, layer index: Int, at progress: Double, evaluator: TimelineEvaluator
  ) -> Point {
    let step = 1e-5
    let low = max(progress - step, 0)
    let high = min(progress + step, 1)
    guard high > low else { return .zero }
    let a = drawnPoint(unit, evaluator.layerState(at: index, progress: low))
    let b = drawnPoint(unit, evaluator.layerState(at: index, progress: high))
    return Point(x: (b.x - a.x) / (high - low), y: (b.y - a.y) / (high - low))
  }
}
