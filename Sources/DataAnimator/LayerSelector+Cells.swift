import TransitionKit

extension LayerSelector {
  /// Whether the selector, or one it nests, selects by role `cell`.
  var asksForCells: Bool {
    role == ContextLayer.cellRole || not.contains(where: \.asksForCells)
  }
}
