import CTransitionPlugin
import PluginValues
import TransitionKit

/// An animator accepted from a plugin descriptor: its listing and the C functions to call.
struct LoadedAnimator {
  let info: RegisteredAnimator
  let makeTimeline: transitiond_make_timeline_fn
  let freeBytes: transitiond_free_bytes_fn
  let animatorData: UnsafeMutableRawPointer?

  /// The most bytes accepted from one call (timeline or message): 16 MiB.
  static let maximumResultBytes = 16 << 20
  /// The most characters of a plugin's error message kept.
  static let maximumMessageLength = 1000

  /// Calls the plugin's `make_timeline` and turns every outcome into a result; the returned
  /// bytes are copied and handed back to `free_bytes` exactly once.
  ///
  /// A `.failed` message does not name the animator: whoever reports it does, once
  /// (`animator <name> failed: <message>`).
  ///
  /// Not thread-safe: the caller serialises calls (the ABI promises plugins one thread at a
  /// time).
  func call(contextJSON: [UInt8]) -> PluginTimelineResult {
    var bytes: UnsafeMutablePointer<UInt8>? = nil
    var length = 0
    let status: transitiond_status =
      contextJSON.isEmpty
      ? [UInt8(0)].withUnsafeBufferPointer { empty in
        makeTimeline(animatorData, empty.baseAddress, 0, &bytes, &length)
      }
      : contextJSON.withUnsafeBufferPointer { context in
        makeTimeline(animatorData, context.baseAddress, context.count, &bytes, &length)
      }
    var copied: [UInt8]? = nil
    var tooLong = false
    if let bytes {
      if length >= 0 && length <= Self.maximumResultBytes {
        copied = Array(UnsafeBufferPointer(start: bytes, count: length))
      } else {
        tooLong = true
      }
      freeBytes(animatorData, bytes, length)
    }
    if tooLong {
      return .failed(
        "returned \(UInt(bitPattern: length)) bytes, more than the limit of "
          + "\(Self.maximumResultBytes)")
    }
    switch status {
    case transitiond_status(TRANSITIOND_STATUS_OK):
      guard let copied, !copied.isEmpty else {
        return .failed("reported success but returned no timeline")
      }
      return Timeline.isBinaryForm(copied) ? .binaryTimeline(copied) : .timeline(copied)
    case transitiond_status(TRANSITIOND_STATUS_DECLINE):
      return .declined
    case transitiond_status(TRANSITIOND_STATUS_ERROR):
      guard let copied, !copied.isEmpty else {
        return .failed("reported an error without a message")
      }
      return .failed(
        String(String(decoding: copied, as: UTF8.self).prefix(Self.maximumMessageLength)))
    default:
      return .failed("returned unknown status \(status)")
    }
  }
}
