import TransitionWire

/// What a frame stream needs of one subscriber: how its frames are encoded, where they go,
/// and to be told when the stream has ended. The server core's subscription conforms.
public protocol FrameSubscriber: AnyObject {
  /// Unique among the subscribers of one sink (``FrameSink``).
  var id: Int { get }
  /// Full frames, or deltas after a key frame.
  var encoding: FrameEncoding { get }
  /// Where its frames go, until the subscription ends (nil after).
  var sink: (any FrameSink)? { get }
  /// `stream` has sent its final frame and `complete` to it.
  func streamFinished(_ stream: FrameStream)
  /// A display-paced stream wrote frame `seq` of `session` to it, showing `vblank` (nil for
  /// a final frame, which shows the session's end), for its `presented` reports.
  func frameSent(session: String, seq: Int, vblank: Double?)
}
