import TransitionKit

/// The clips of a timeline that never let a layer be seen (`check-plugin`'s `clip` rule): a
/// layer that is drawn (not hidden, alpha above 0) with a `clipTo` at some sampled instant,
/// and at none of those instants overlaps the box its clip chain leaves, because the boxes
/// never meet or a clipping layer is hidden or has no area.
enum ClipVisibility {
  /// The instants sampled, as progress: every 1/`samples` of the way, both ends included.
  static let samples = 64

  /// One line for each layer a clip always hides, naming the layer and its clip.
  static func neverSeen(_ timeline: Timeline) -> [String] {
    guard
      timeline.layers.contains(where: {
        $0.initial.clipTo != nil || $0.tracks.contains { $0.property == .clipTo }
      })
    else { return [] }
    let evaluator = TimelineEvaluator(timeline)
    // For each layer drawn with a clip: whether it was seen once, and the clip it had.
    var clipped: [String: (seen: Bool, clip: String)] = [:]
    var order: [String] = []
    for step in 0...samples {
      let frame = evaluator.frame(progress: Double(step) / Double(samples))
      var regions = ClipRegions(
        layers: Dictionary(frame.layers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
      for layer in frame.layers {
        guard let clip = layer.clipTo, !layer.hidden, layer.alpha > 0 else { continue }
        if clipped[layer.id] == nil { order.append(layer.id) }
        let seen = clipped[layer.id]?.seen ?? false
        let visible = bounds(of: layer).flatMap { box in
          regions.region(clip).flatMap { intersection(box, $0) }
        }
        clipped[layer.id] = (seen || visible != nil, clip)
      }
    }
    return order.compactMap { id in
      guard let entry = clipped[id], !entry.seen else { return nil }
      return "\(id) is clipped to \(entry.clip), which never lets it be seen at a sampled instant"
    }
  }

  typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

  /// What each clip chain of one frame leaves visible, each chain's region worked out once: a
  /// frame whose layers are all clipped in one long chain costs one walk of it, not one a
  /// layer (a plugin's 20,000-layer chain).
  struct ClipRegions {
    let layers: [String: LayerState]
    /// The region each clipping layer's chain leaves; nil inside when nothing is left.
    private var known: [String: Box?] = [:]

    init(layers: [String: LayerState]) { self.layers = layers }

    /// The box inside every box of `id`'s chain (`id`, its `clipTo`, and so on), each clip
    /// shown (not hidden) with an area; nil when there is none, a layer of the chain is
    /// missing, or the chain comes back on itself.
    mutating func region(_ id: String) -> Box? {
      var pending: [String] = []
      var next: String? = id
      // What the chain past `pending` leaves: everything, when it ends.
      var tail: Box? = (-Double.infinity, -Double.infinity, Double.infinity, Double.infinity)
      while let current = next {
        if let region = known[current] {
          tail = region
          break
        }
        guard pending.count <= layers.count else {
          tail = nil
          break
        }
        pending.append(current)
        next = layers[current]?.clipTo
      }
      for current in pending.reversed() {
        if let clip = layers[current], !clip.hidden, let box = bounds(of: clip) {
          tail = tail.flatMap { intersection($0, box) }
        } else {
          tail = nil
        }
        known[current] = .some(tail)
      }
      return tail
    }
  }

  /// The bounding box of the layer's drawn (projected) box; nil when it has no area.
  private static func bounds(of layer: LayerState) -> Box? {
    let f = layer.frame
    guard f.width > 0, f.height > 0 else { return nil }
    let corners = [
      Point(x: f.minX, y: f.minY), Point(x: f.maxX, y: f.minY), Point(x: f.maxX, y: f.maxY),
      Point(x: f.minX, y: f.maxY),
    ].map(layer.project)
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
      minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, maxX > minX, maxY > minY
    else { return nil }
    return (minX, minY, maxX, maxY)
  }

  private static func intersection(_ a: Box, _ b: Box) -> Box? {
    let box = (max(a.minX, b.minX), max(a.minY, b.minY), min(a.maxX, b.maxX), min(a.maxY, b.maxY))
    return box.2 > box.0 && box.3 > box.1 ? box : nil
  }
}
