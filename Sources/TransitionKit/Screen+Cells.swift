extension Screen {
  /// Whether any layer of the screen has a `role`.
  public var namesRoles: Bool { layers.contains { $0.role != nil } }

  /// The layers taken as the screen's collection cells when no layer has a `role` (a context
  /// written before roles existed): the layers that share the most common size, at least two
  /// of them, leaving out every layer whose frame covers the whole container (a background, a
  /// full-screen picture). Sizes tie to the one met first in context order. Empty when no size
  /// is shared.
  public func inferredCellIDs(in container: Size) -> Set<String> {
    let candidates = layers.filter { layer in
      !(layer.frame.minX <= 0 && layer.frame.minY <= 0
        && layer.frame.maxX >= container.width && layer.frame.maxY >= container.height)
    }
    var counts: [Size: Int] = [:]
    var order: [Size] = []
    for layer in candidates {
      if counts[layer.frame.size] == nil { order.append(layer.frame.size) }
      counts[layer.frame.size, default: 0] += 1
    }
    var best: Size? = nil
    for size in order where counts[size]! >= 2 && counts[size]! > (best.map { counts[$0]! } ?? 0) {
      best = size
    }
    guard let best else { return [] }
    return Set(candidates.filter { $0.frame.size == best }.map(\.id))
  }
}
