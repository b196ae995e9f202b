/// What the presenter needs of a transport's output: to hold what is queued past the end of
/// the loop iteration, and to let it go (docs/architecture.md, "The frame clock"). The daemon's
/// Unix connections and HTTP event streams conform, and so does the core's fake peer.
///
/// Only the frame path decides when output leaves: a frame clock's presenter holds a tick
/// rendered ahead of its deadline and releases it at the deadline; the server core sends the
/// frame of a control op, or a reply that answers late, at once, and ends a hold when a
/// request arrives.
public protocol FrameOutput: AnyObject {
  /// Sends what was queued so far now rather than at the end of the loop iteration, held
  /// output included.
  func flushNow()
  /// Holds what is queued, and what is queued after, past the end of the loop iteration,
  /// until ``flush()`` or ``flushNow()``.
  func holdOutput()
  /// Ends a hold: what is queued leaves with the rest of this loop iteration's output, as if
  /// it had never been held. Without a hold it changes nothing.
  func flush()
  /// True from ``holdOutput()`` until the hold ends.
  var isHoldingOutput: Bool { get }
}

extension FrameOutput {
  /// Does nothing: for outputs whose transport sends each line as it is queued.
  public func flushNow() {}

  /// Does nothing: for outputs whose transport sends each line as it is queued (their frames
  /// leave when rendered, up to the frame clock's lead before their deadline).
  public func holdOutput() {}

  /// Does nothing: for outputs whose transport sends each line as it is queued.
  public func flush() {}

  /// False: for outputs that never hold.
  public var isHoldingOutput: Bool { false }
}
