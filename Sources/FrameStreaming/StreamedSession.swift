import TransitionKit

/// What a frame stream needs of the session it shows (``FrameStream``, ``VirtualCursor``):
/// its identity and clock, and the evaluation and rendering of its frames. The server core's
/// session conforms; the stream sees nothing else of it.
///
/// Every member is read on the core's thread, during a frame.
public protocol StreamedSession: AnyObject {
  var id: String { get }
  /// The monotonic time of `begin`: a frame's `t` counts from here.
  var startTime: Double { get }
  /// The length of the transition in seconds.
  var duration: Double { get }
  /// The uid of the peer that began the session, when known: its render time is charged
  /// there (``RenderShares``).
  var ownerUID: UInt32? { get }
  var isCompleted: Bool { get }
  /// True while the session's clock moves on its own: its stream ticks on a frame clock.
  var isMoving: Bool { get }
  /// The session that interrupted this one (its `complete` carries it); nil otherwise.
  var interruptedBy: String? { get }
  /// The session time at which another session interrupted this one; nil otherwise.
  var interruptionTime: Double? { get }
  /// Per layer, the fields its frames change (``FrameRenderer/animatedFields``).
  var animatedFields: [LayerFields] { get }
  /// Linear progress at monotonic `now`.
  func progress(at now: Double) -> Double
  /// Whether the session's clock reaches its end by `time` without a change: a frame clock
  /// renders no frame for a deadline at or after it (the session's completion sends the
  /// final frame).
  func ends(by time: Double) -> Bool
  /// Renders frame `seq` at `progress`, `t` seconds into the session, and lends its full line
  /// and its evaluated frame to `body` (valid only during the call). A `live` frame (the
  /// session's own clock) moves the layers a finger holds.
  func render(
    seq: Int, progress: Double, t: Double, live: Bool,
    _ body: (UnsafeRawBufferPointer, Frame) -> Void)
  /// Evaluates the frame ``render(seq:progress:t:live:_:)`` renders, its line not encoded.
  func evaluate(progress: Double, t: Double, live: Bool, _ body: (Frame) -> Void)
  /// `stream` lost its last subscriber: the session forgets it.
  func streamBecameEmpty(_ stream: FrameStream)
}
