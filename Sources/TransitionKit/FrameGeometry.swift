/// What a subscription's frames carry beside each layer's fields (`subscribe`'s `geometry`,
/// docs/protocol.md, "Projected geometry").
public enum FrameGeometry: String, CaseIterable, Sendable {
  /// The layer fields alone.
  case none
  /// Each layer also carries `quad`, `quadW` and `affine` (``TransitionKit/ProjectedQuad``).
  case quad
}
