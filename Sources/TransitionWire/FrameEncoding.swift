/// How a subscription's frames are written (`subscribe`'s `encoding`, docs/protocol.md,
/// "Delta frames").
public enum FrameEncoding: String, CaseIterable, Sendable {
  /// Every frame lists every layer with every field that is not its default.
  case full
  /// A key frame (a full frame with `"key":true`) first and whenever the subscriber must start
  /// afresh; in between, each frame lists only what changed since the one before it, with
  /// `"key":false`.
  case delta
}
