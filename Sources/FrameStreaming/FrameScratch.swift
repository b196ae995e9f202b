/// One buffer that the templated frame encoders of one thread write their lines into and
/// lend them from (``FrameEncoder/init(animatedFields:scratch:)``): each frame is written
/// into memory the frame before it left in the caches, instead of into a buffer of its
/// session's own, gone cold since that session's last frame.
///
/// A line written here is valid only during the encoder's call to its `body`; an encoder
/// called while another's line is lent writes into its own buffer. Not for use from two
/// threads at once.
public final class FrameScratch {
  /// The most bytes a line written here may take; a longer frame goes to its encoder's own
  /// buffer.
  let capacity: Int
  let start: UnsafeMutablePointer<UInt8>
  /// True while a line written here is lent to an encoder's `body`.
  public internal(set) var isLent = false

  public init(capacity: Int = 1 << 16) {
    self.capacity = capacity
    start = .allocate(capacity: capacity)
  }

  deinit { start.deallocate() }
}

@available(*, unavailable) extension FrameScratch: Sendable {}
