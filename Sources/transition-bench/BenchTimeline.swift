import TransitionKit

/// The timelines the benchmark evaluates.
enum BenchTimeline {
  /// An album-flip-like timeline: a screen background, a cover flipping about its left edge
  /// with perspective, its snapshot fading at the quarter, and `layers − 3` photo cells flying
  /// out from behind the cover with staggered keyframes.
  static func albumFlipLike(layers count: Int) -> Timeline {
    let container = Size(width: 390, height: 844)
    let cover = Rect(x: 20, y: 120, width: 170, height: 170)
    var background = LayerAttributes(frame: Rect(origin: .zero, size: container))
    background.background = .clear
    var coverState = LayerAttributes(frame: cover)
    coverState.anchor = Point(x: 0, y: 0.5)
    coverState.perspective = -1.0 / 500
    coverState.z = 100
    var layers = [
      TimelineLayer(
        id: "background", initial: background,
        tracks: [
          PropertyTrack(
            .background,
            keyframes: [Keyframe(start: 0, duration: 1, value: .color(.white))])
        ]),
      TimelineLayer(
        id: "cover", initial: coverState,
        tracks: [
          PropertyTrack(
            .rotationY, keyframes: [Keyframe(start: 0, duration: 0.5, value: .number(-.pi))]),
          PropertyTrack(
            .alpha, keyframes: [Keyframe(start: 0.45, duration: 0.05, value: .number(0))]),
        ]),
      TimelineLayer(
        id: "cover.snapshot", initial: LayerAttributes(frame: cover),
        tracks: [
          PropertyTrack(
            .alpha, keyframes: [Keyframe(start: 0.25, duration: 0.01, value: .number(0))])
        ]),
    ]
    let cells = count - 3
    let side = 128.0
    for index in 0..<cells {
      let final = Rect(
        x: Double(index % 3) * (side + 3), y: 100 + Double(index / 3) * (side + 3), width: side,
        height: side)
      var state = LayerAttributes(frame: Rect(center: cover.center, size: final.size))
      state.alpha = 0
      state.scaleX = cover.width / side
      state.scaleY = cover.height / side
      let distance = abs(final.midX - container.width / 2) + abs(final.midY - container.height / 2)
      let start = 0.5 + 0.2 * (1 - min(distance / 800, 1))
      layers.append(
        TimelineLayer(
          id: "cell-\(index)", initial: state,
          tracks: [
            PropertyTrack(
              .alpha, keyframes: [Keyframe(start: 0, duration: 0.7, value: .number(1))]),
            PropertyTrack(
              .position,
              keyframes: [
                Keyframe(
                  start: start, duration: 1 - start, value: .point(final.center),
                  curve: .easeInEaseOut)
              ]),
            PropertyTrack(
              .scale,
              keyframes: [
                Keyframe(
                  start: start, duration: 1 - start, value: .number(1), curve: .easeInEaseOut)
              ]),
          ]))
    }
    // The layers above are valid by construction; a failure here is a bug in the benchmark.
    guard let timeline = try? Timeline(duration: 1, curve: .easeOut, layers: layers) else {
      fatalError("benchmark timeline is invalid")
    }
    return timeline
  }
}

/// A frame in Codable form, for the Foundation JSONEncoder side of the encoding comparison.
struct CodableFrame: Encodable {
  struct Layer: Encodable {
    var id: String
    var frame: [Double]
    var anchor: [Double]
    var transform: [Double]
    var alpha: Double
    var hidden: Bool
    var z: Double
  }

  var event = "frame"
  var session = "s1"
  var seq = 0
  var t: Double
  var progress: Double
  var layers: [Layer]

  init(_ frame: Frame) {
    t = frame.t
    progress = frame.progress
    layers = frame.layers.map {
      Layer(
        id: $0.id, frame: [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height],
        anchor: [$0.anchor.x, $0.anchor.y], transform: $0.transform.elements, alpha: $0.alpha,
        hidden: $0.hidden, z: $0.z)
    }
  }
}
