/// The frame rates a subscription may ask for (docs/protocol.md, `subscribe`): the daemon
/// refuses others with `bad_request`, and `transitionctl --fps` accepts the same range.
public enum FrameRate {
  /// Frames per second, inclusive.
  public static let range: ClosedRange<Double> = 1...240
}
