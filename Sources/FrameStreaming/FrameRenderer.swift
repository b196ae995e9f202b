import TransitionKit

/// Evaluates one session's timeline and encodes the result as a `frame` event: the one
/// evaluate-then-encode path (the server's frame streams, `transition-bench`, tests).
///
/// Each call evaluates once and encodes once into reused storage; the frame contract is
/// docs/protocol.md's (`frame` event) and docs/architecture.md's. ``render(seq:progress:time:_:)``
/// lends the encoded line to a closure, so nothing is copied or reference-counted between
/// evaluating a frame and writing it to every subscriber.
public struct FrameRenderer {
  /// The session the frames belong to, written into every event.
  public private(set) var session: String
  /// The evaluator of the session's timeline.
  public var evaluator: TimelineEvaluator { shared.evaluator }
  /// The frame evaluated last, by this renderer or by one of its copies (``renamed(to:)``).
  public var frame: Frame { shared.frame }
  /// The evaluator, and the frame the renderer and its copies evaluate into: each render
  /// brings the whole frame to its own progress (``TimelineEvaluator/update(_:progress:time:)``
  /// takes any frame its evaluator wrote), so alike sessions write into one frame, not each
  /// into its own, and read one evaluator where they all left it.
  private let shared: SharedEvaluation
  /// Serves one timeline: what its layers never change is encoded once.
  private var encoder: FrameEncoder
  /// The offset of a session that interrupted another, added to every frame; nil otherwise.
  public let handover: Handover?
  /// Per layer, the fields that change from frame to frame: the timeline's animated fields,
  /// and those the handover moves.
  public let animatedFields: [LayerFields]

  /// A renderer of `evaluator`'s frames; with a `scratch`, its lines are written there (see
  /// ``FrameScratch``).
  public init(session: String, evaluator: TimelineEvaluator, scratch: FrameScratch? = nil) {
    self.session = session
    shared = SharedEvaluation(evaluator)
    handover = nil
    animatedFields = evaluator.animatedFields
    encoder = FrameEncoder(animatedFields: animatedFields, scratch: scratch)
  }

  /// A renderer of `timeline`'s frames for a session that interrupted another: every frame is
  /// evaluated in full and carries `handover`'s offset at its `t`. Its evaluation is its own,
  /// shared with no other renderer.
  public init(
    session: String, timeline: Timeline, handover: Handover, scratch: FrameScratch? = nil
  ) {
    self.session = session
    let evaluator = TimelineEvaluator(timeline)
    shared = SharedEvaluation(evaluator)
    self.handover = handover
    let moved = handover.changedFields(layerCount: evaluator.animatedFields.count)
    animatedFields = zip(evaluator.animatedFields, moved).map { $0.union($1) }
    encoder = FrameEncoder(animatedFields: animatedFields, scratch: scratch)
  }

  public init(session: String, timeline: Timeline, scratch: FrameScratch? = nil) {
    self.init(session: session, evaluator: TimelineEvaluator(timeline), scratch: scratch)
  }

  /// Renders the `frame` event at linear `progress` and lends the `\n`-terminated line to
  /// `body` (valid only during the call). With a `follower`, the held layers are moved as it
  /// has them at monotonic `clockTime` (``GestureFollower/apply(to:at:)``); the frame is
  /// evaluated without the offset first, so the next render starts from the timeline's own
  /// values.
  /// - Parameters:
  ///   - seq: the frame's number in its stream.
  ///   - progress: linear progress, clamped to [0, 1].
  ///   - time: the frame's `t` (session time); `progress × duration` when nil.
  public mutating func render<Result>(
    seq: Int, progress: Double, time: Double? = nil, following follower: GestureFollower? = nil,
    at clockTime: Double = 0, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    bringFrame(to: progress, time: time, following: follower, at: clockTime)
    checkFrameIsOwn()
    return try encoder.encode(session: session, seq: seq, frame: shared.frame, body)
  }

  /// Renders the `frame` event as the methods above do (with the held layers moved as
  /// `follower` has them at monotonic `clockTime`, when there is one), and lends `body` the
  /// evaluated frame beside the line (for a ``FrameDeltaEncoder``).
  public mutating func render<Result>(
    seq: Int, progress: Double, time: Double? = nil, following follower: GestureFollower? = nil,
    at clockTime: Double = 0, _ body: (UnsafeRawBufferPointer, Frame) throws -> Result
  ) rethrows -> Result {
    bringFrame(to: progress, time: time, following: follower, at: clockTime)
    checkFrameIsOwn()
    let frame = shared.frame
    return try encoder.encode(session: session, seq: seq, frame: frame) { try body($0, frame) }
  }

  /// Evaluates the frame as ``render(seq:progress:time:following:at:_:)-(_,_,_,_,_,(UnsafeRawBufferPointer,Frame)->Result)``
  /// does and lends it to `body` without encoding its line: for frames that only a
  /// ``FrameDeltaEncoder`` writes. The next frame rendered is written whole as ever.
  public mutating func evaluate<Result>(
    progress: Double, time: Double? = nil, following follower: GestureFollower? = nil,
    at clockTime: Double = 0, _ body: (Frame) throws -> Result
  ) rethrows -> Result {
    bringFrame(to: progress, time: time, following: follower, at: clockTime)
    return try body(shared.frame)
  }

  /// Brings the shared frame to linear `progress`, writing only what the timeline animates,
  /// with the held layers moved as `follower` has them at monotonic `clockTime` when there
  /// is one: every render and evaluation starts here.
  private func bringFrame(
    to progress: Double, time: Double?, following follower: GestureFollower? = nil,
    at clockTime: Double = 0
  ) {
    if let handover {
      // The offset writes fields the timeline may not animate: the frame is evaluated whole,
      // from just after the timeline's start (``Handover/startProgress``).
      shared.evaluator.evaluate(
        progress: max(progress, Handover.startProgress), time: time, into: &shared.frame)
      shared.frame.progress = min(max(progress, 0), 1)
      follower?.apply(to: &shared.frame, at: clockTime)
      handover.apply(to: &shared.frame, at: time ?? shared.frame.t)
    } else {
      shared.evaluator.update(&shared.frame, progress: progress, time: time)
      follower?.apply(to: &shared.frame, at: clockTime)
    }
    #if DEBUG
      shared.broughtBy = session
      shared.broughtTo = shared.frame.progress
    #endif
  }

  /// Checks, in debug builds, that the shared frame is the one this renderer brought to its
  /// progress, not moved since by one of its copies: what it encodes is its own session's
  /// frame.
  @inline(__always)
  private func checkFrameIsOwn() {
    #if DEBUG
      precondition(
        shared.broughtBy == session && shared.broughtTo == shared.frame.progress,
        "session \(session) encodes a frame another renderer brought to its progress")
    #endif
  }

  /// A copy that renders `session`'s frames: what is compiled and written once (the
  /// evaluator, the frame's template and the texts kept of its animated fields) and the frame
  /// it evaluates into are shared with this renderer, not made again. A renderer and its
  /// copies are for one thread.
  public func renamed(to session: String) -> FrameRenderer {
    var copy = self
    copy.session = session
    return copy
  }

  /// The `frame` event at linear `progress`, `\n`-terminated, as a new array.
  public mutating func render(seq: Int, progress: Double, time: Double? = nil) -> [UInt8] {
    render(seq: seq, progress: progress, time: time) { Array($0) }
  }
}

/// The evaluator of a renderer and its copies, and the frame they evaluate into.
private final class SharedEvaluation {
  let evaluator: TimelineEvaluator
  var frame = Frame()
  #if DEBUG
    /// The session of the renderer that brought the frame to its progress last, and that
    /// progress (debug builds check them before encoding).
    var broughtBy: String?
    var broughtTo: Double?
  #endif

  init(_ evaluator: TimelineEvaluator) {
    self.evaluator = evaluator
  }
}
