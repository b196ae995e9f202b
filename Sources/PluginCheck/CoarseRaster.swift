import TransitionJSON
import TransitionKit

/// What a renderer would draw, computed from layer geometry and opacity alone: the container
/// sampled every `step` points, each sample the colour of the layers over it composited in
/// paint order. The drawn-frame checks of `transitiond check-plugin` and of the animator tests
/// compare these.
///
/// A layer paints its `content` as one opaque colour derived from the content's JSON (two
/// different contents never look alike; an image stands for its name), or else its
/// `background`; a layer with neither paints nothing. Projection is the renderer contract's:
/// the transform about the anchor with the perspective divide (`LayerState.project`), so a
/// layer covers the convex quadrilateral of its projected corners.
public struct CoarseRaster: Sendable {
  public let columns: Int
  public let rows: Int
  /// The samples, row by row, as red, green and blue in [0, 1].
  public var pixels: [SIMD3<Double>]

  /// One layer as drawn: its projected corners in order round the edge, its paint and opacity.
  public struct Paint: Sendable {
    public var corners: [Point]
    public var color: SIMD3<Double>
    public var opacity: Double

    public init(corners: [Point], color: SIMD3<Double>, opacity: Double) {
      self.corners = corners
      self.color = color
      self.opacity = opacity
    }
  }

  /// Samples sit this far off the half-step grid, a quarter point from every whole and half
  /// point, where the scenes' frames have their edges: no sample lies on an edge, and an edge
  /// crosses a sample only when it moves by a quarter point or more.
  public static let offset = 0.25

  /// Draws `paints` (in paint order) over a mid-grey canvas of `container`.
  public init(_ paints: [Paint], container: Size, step: Double = 4) {
    // Every sample lies inside the container.
    columns = max(0, Int(((container.width - Self.offset) / step - 0.5).rounded(.down)) + 1)
    rows = max(0, Int(((container.height - Self.offset) / step - 0.5).rounded(.down)) + 1)
    pixels = Array(repeating: SIMD3(0.5, 0.5, 0.5), count: columns * rows)
    for paint in paints where paint.opacity > 0 {
      let xs = paint.corners.map(\.x)
      let ys = paint.corners.map(\.y)
      let firstColumn = max(0, Int(((xs.min() ?? 0) / step - 0.5).rounded(.down)))
      let lastColumn = min(columns - 1, Int(((xs.max() ?? 0) / step - 0.5).rounded(.up)))
      let firstRow = max(0, Int(((ys.min() ?? 0) / step - 0.5).rounded(.down)))
      let lastRow = min(rows - 1, Int(((ys.max() ?? 0) / step - 0.5).rounded(.up)))
      guard firstColumn <= lastColumn, firstRow <= lastRow else { continue }
      for row in firstRow...lastRow {
        for column in firstColumn...lastColumn {
          let sample = Point(
            x: (Double(column) + 0.5) * step + Self.offset,
            y: (Double(row) + 0.5) * step + Self.offset)
          guard Self.contains(paint.corners, sample) else { continue }
          let index = row * columns + column
          pixels[index] += (paint.color - pixels[index]) * paint.opacity
        }
      }
    }
  }

  /// A frame as a renderer draws it: visible layers in `z` order (ties keep frame order).
  public init(_ frame: Frame, container: Size, step: Double = 4) {
    let ordered = frame.layers.enumerated().sorted {
      ($0.element.z, $0.offset) < ($1.element.z, $1.offset)
    }
    let paints = ordered.compactMap { _, state -> Paint? in
      guard !state.hidden, let (color, opacity) = Self.paint(state.content, state.background)
      else { return nil }
      let box = state.frame
      let corners = [
        Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
        Point(x: box.maxX, y: box.maxY), Point(x: box.minX, y: box.maxY),
      ].map(state.project)
      return Paint(corners: corners, color: color, opacity: opacity * state.alpha)
    }
    self.init(paints, container: container, step: step)
  }

  /// A screen drawn by itself, as the app shows it: its background over the container, then its
  /// layers at their frames.
  public init(_ screen: Screen, container: Size, step: Double = 4) {
    var paints: [Paint] = []
    func rectangle(_ rect: Rect) -> [Point] {
      [
        Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
        Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
      ]
    }
    if let (color, opacity) = Self.paint(nil, screen.background) {
      paints.append(
        Paint(
          corners: rectangle(Rect(x: 0, y: 0, width: container.width, height: container.height)),
          color: color, opacity: opacity))
    }
    for layer in screen.layers {
      if let (color, opacity) = Self.paint(layer.content, layer.background) {
        paints.append(Paint(corners: rectangle(layer.frame), color: color, opacity: opacity))
      }
    }
    self.init(paints, container: container, step: step)
  }

  /// The colour and opacity a layer paints with, or nil when it paints nothing.
  private static func paint(_ content: JSONValue?, _ background: Color?) -> (SIMD3<Double>, Double)?
  {
    if let content {
      // FNV-1a over the content's JSON: a stable colour per content.
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in content.serialized.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      let channel = { (shift: UInt64) in Double((hash >> shift) & 0xff) / 255 }
      return (SIMD3(channel(0), channel(8), channel(16)), 1)
    }
    if let background {
      return (SIMD3(background.red, background.green, background.blue), background.alpha)
    }
    return nil
  }

  /// Whether `point` lies inside the convex polygon `corners` (either winding); a polygon
  /// without area contains nothing.
  private static func contains(_ corners: [Point], _ point: Point) -> Bool {
    var sign = 0.0
    for index in corners.indices {
      let a = corners[index]
      let b = corners[(index + 1) % corners.count]
      let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
      if cross == 0 { continue }
      if sign == 0 {
        sign = cross
      } else if (sign > 0) != (cross > 0) {
        return false
      }
    }
    return sign != 0
  }

  /// The largest difference of one colour channel between two rasters of the same container.
  public func largestDifference(from other: CoarseRaster) -> Double {
    zip(pixels, other.pixels).map(Self.difference).max() ?? 0
  }

  /// The share of samples (0 to 1) that changed from `other` in a way that moving less than one
  /// step (4 points) does not explain, inside a changed area.
  ///
  /// A sample changed when its colour differs by more than `threshold` in a channel from every
  /// sample of `other` in the 3 × 3 neighbourhood around it; it counts when its whole 3 × 3
  /// neighbourhood changed too, so that a sliver one sample wide (an edge that moved by a
  /// fraction of a step, content uncovered at the edge of a moving screen) does not count and a
  /// picture swapped for another does.
  public func changedShare(from other: CoarseRaster, above threshold: Double = 0.2) -> Double {
    /// Whether `test` holds for every sample in the 3 × 3 neighbourhood of (row, column).
    func everyNeighbour(_ row: Int, _ column: Int, _ test: (Int) -> Bool) -> Bool {
      for r in max(0, row - 1)...min(rows - 1, row + 1) {
        for c in max(0, column - 1)...min(columns - 1, column + 1) where !test(r * columns + c) {
          return false
        }
      }
      return true
    }
    var changed = [Bool](repeating: false, count: pixels.count)
    for row in 0..<rows {
      for column in 0..<columns {
        let pixel = pixels[row * columns + column]
        changed[row * columns + column] = everyNeighbour(row, column) {
          Self.difference(pixel, other.pixels[$0]) > threshold
        }
      }
    }
    var counted = 0
    for row in 0..<rows {
      for column in 0..<columns where everyNeighbour(row, column, { changed[$0] }) {
        counted += 1
      }
    }
    return Double(counted) / Double(max(pixels.count, 1))
  }

  /// The largest channel difference of two colours.
  private static func difference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
  }
}
