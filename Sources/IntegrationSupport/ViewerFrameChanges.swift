/// How much a drawing changes from one frame to the next, from what the browser drew.
struct ViewerFrameChanges {
  /// For each pair of consecutive frames: the mean corner movement of every layer drawn in
  /// both, in CSS pixels, each weighted by the larger of its two drawn opacities, summed.
  let geometry: [Double]
  /// For each pair of consecutive frames: the sum over layers of the change in drawn opacity
  /// (a layer missing from a frame counts as transparent there).
  let opacity: [Double]

  init(_ measurements: ViewerMeasurements) {
    var geometry: [Double] = []
    var opacity: [Double] = []
    for (before, after) in zip(measurements.frames, measurements.frames.dropFirst()) {
      var moved = 0.0
      var faded = 0.0
      let ids = Set(before.layers.map(\.id)).union(after.layers.map(\.id))
      for id in ids {
        let a = before.layer(id)
        let b = after.layer(id)
        faded += abs((a?.drawnOpacity ?? 0) - (b?.drawnOpacity ?? 0))
        guard let a, let b else { continue }
        let weight = max(a.drawnOpacity, b.drawnOpacity)
        guard weight > 0 else { continue }
        let corners = zip(a.quad, b.quad).map { p, q in
          ((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1])).squareRoot()
        }
        moved += weight * corners.reduce(0, +) / Double(max(corners.count, 1))
      }
      geometry.append(moved)
      opacity.append(faded)
    }
    self.geometry = geometry
    self.opacity = opacity
  }

  /// The jumps near either end of `changes`: indices k in the first or the last tenth (at least
  /// one change each) whose change exceeds `ratio` times the larger change beside it plus
  /// `floor` (which keeps changes too small to see out of it).
  static func jumps(in changes: [Double], ratio: Double = 3, floor: Double) -> [Int] {
    let count = changes.count
    let tenth = max(1, (count + 9) / 10)
    let ends = Set(Array(0..<min(tenth, count)) + Array(max(0, count - tenth)..<count))
    return jumps(in: changes, at: ends.sorted(), ratio: ratio, floor: floor)
  }

  /// The indices among `indices` whose change exceeds `ratio` times the larger change beside
  /// it plus `floor`.
  static func jumps(in changes: [Double], at indices: [Int], ratio: Double = 3, floor: Double)
    -> [Int]
  {
    indices.filter { k in
      let beside = [k - 1, k + 1].filter { $0 >= 0 && $0 < changes.count }.map { changes[$0] }
      return changes[k] > ratio * (beside.max() ?? 0) + floor
    }
  }
}
