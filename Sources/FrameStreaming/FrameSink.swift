/// What becomes of a wall-clock frame for one sink (``FrameSink/admitFrame(subscriber:session:)``).
public enum FrameAdmission {
  /// Write it now (``FrameSink/writeFrame(_:)``); an older frame of the stream that was owed
  /// is dropped.
  case write
  /// Do not write it: the sink is owed the stream's newest frame instead, which the stream
  /// renders for it when it drains (``FrameStream/sendLatestFrame(to:)``).
  case coalesce
  /// The sink is closed (or was closed now, for being too slow): send nothing.
  case closed
}

/// What a frame stream and the presenter need of the connection a subscriber's frames go
/// to: the slow-subscriber decision, the writes, and the hold of output rendered ahead of its
/// deadline. The server core's client conforms; one sink serves all its subscribers.
public protocol FrameSink: AnyObject {
  /// Decides, by the slow-subscriber policy, whether a wall-clock frame of `subscriber`'s
  /// stream of `session` is written or coalesced. Asked before the frame is rendered: a frame
  /// no sink takes is never rendered.
  func admitFrame(subscriber: Int, session: String) -> FrameAdmission
  /// Writes a frame admitted with ``FrameAdmission/write``; `bytes` are lent for the call.
  func writeFrame(_ bytes: UnsafeRawBufferPointer)
  /// Writes a stream's final frame and its `complete` line; neither is ever coalesced away.
  func sendFinal(frame: UnsafeRawBufferPointer, complete: [UInt8], subscriber: Int, session: String)
  /// Keeps what is queued, and what is queued after, until ``flushNow()`` (``FrameOutput``).
  func holdOutput()
  /// Sends what is queued now, held output included.
  func flushNow()
  /// The presenter tick that last held this sink's output (kept by ``FramePresenter``).
  var presentationMark: FramePresenter.Mark? { get set }
}
