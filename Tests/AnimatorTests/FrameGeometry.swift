import PluginCheck
import TransitionKit

/// Tolerance for positions in points and for unit values.
let tolerance = 1e-6

func close(_ a: Double, _ b: Double, within limit: Double = tolerance) -> Bool {
  abs(a - b) <= limit * max(1, abs(a), abs(b))
}

func close(_ a: Point, _ b: Point, within limit: Double = tolerance) -> Bool {
  close(a.x, b.x, within: limit) && close(a.y, b.y, within: limit)
}

func close(_ a: Rect, _ b: Rect, within limit: Double = tolerance) -> Bool {
  close(a.x, b.x, within: limit) && close(a.y, b.y, within: limit)
    && close(a.width, b.width, within: limit) && close(a.height, b.height, within: limit)
}

func close(_ a: Transform3D, _ b: Transform3D, within limit: Double = tolerance) -> Bool {
  zip(a.elements, b.elements).allSatisfy { close($0, $1, within: limit) }
}

func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
  Rect(
    x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, width: a.width + (b.width - a.width) * t,
    height: a.height + (b.height - a.height) * t)
}

extension LayerState {
  /// The bounding box of the drawn layer.
  var drawnRect: Rect {
    let corners = [
      Point(x: frame.minX, y: frame.minY), Point(x: frame.maxX, y: frame.minY),
      Point(x: frame.minX, y: frame.maxY), Point(x: frame.maxX, y: frame.maxY),
    ].map(project)
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let minX = xs.min() ?? 0
    let minY = ys.min() ?? 0
    return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
  }

  /// Whether the layer draws nothing (hidden or fully transparent).
  var isInvisible: Bool { hidden || alpha == 0 }

  /// Whether the layer is drawn exactly as a context layer: its frame, no transform, opaque,
  /// shown, with its background and content.
  func matches(_ layer: ContextLayer) -> Bool {
    frame == layer.frame && transform == .identity && alpha == 1 && !hidden
      && background == layer.background && content == layer.content
  }
}

extension Timeline {
  /// The same timeline with a linear overall curve: progress then equals the keyframes'
  /// relative time, which is what the animators' keyframe windows are written in.
  var linearized: Timeline {
    get throws { try Timeline(duration: duration, curve: .linear, layers: layers) }
  }

  /// The frame at linear progress `progress`.
  func frame(at progress: Double) -> Frame {
    TimelineEvaluator(self).frame(progress: progress)
  }
}

extension Frame {
  /// The layer `id`, or a test error.
  func state(_ id: String) throws -> LayerState {
    guard let state = layer(id) else { throw PluginTestError(description: "no layer \(id)") }
    return state
  }
}

/// The linear progress at which `curve` reaches `value`, found by bisection (curves here are
/// monotonic).
func progress(where curve: TimingCurve, reaches value: Double) -> Double {
  var low = 0.0
  var high = 1.0
  for _ in 0..<100 {
    let middle = (low + high) / 2
    if curve.value(at: middle) < value { low = middle } else { high = middle }
  }
  return (low + high) / 2
}

extension Rect {
  /// Whether the two rectangles share some area.
  func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }
}
