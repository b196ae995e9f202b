import Foundation
import Testing
import TransitionPluginSDK

/// `RigidGroup`: a whole screen moves as one body about one point, and each layer is drawn
/// exactly where the body's transform about that point puts it.
@Suite struct RigidGroupTests {
  static let container = Size(width: 390, height: 844)

  /// A screen of layers that tile and overlap: a bar, a card, a small badge, a full backdrop.
  static let screen: [TimelineLayer] = [
    Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: 0, y: 0, width: 390, height: 91),
    Rect(x: 16, y: 120, width: 358, height: 240), Rect(x: 300, y: 700, width: 40, height: 20),
  ].enumerated().map { index, frame in
    TimelineLayer(id: "layer-\(index)", initial: LayerAttributes(frame: frame))
  }

  /// Where `point` of `state` is drawn: its transform about its anchor, with the divide.
  static func drawn(_ state: LayerState, _ point: Point) -> Point {
    let ax = state.frame.x + state.anchor.x * state.frame.width
    let ay = state.frame.y + state.anchor.y * state.frame.height
    let moved = state.transform.apply(x: point.x - ax, y: point.y - ay)
    return Point(x: moved.x + ax, y: moved.y + ay)
  }

  static func corners(_ rect: Rect) -> [Point] {
    [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
      Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY),
    ]
  }

  /// Expects every corner of every layer at `progress` to be drawn at `pivot + (p − pivot)·body`.
  static func expectRigid(
    _ group: RigidGroup, body: (Double) -> Transform3D, at times: [Double]
  ) throws {
    let evaluator = TimelineEvaluator(try Timeline(duration: 1, layers: group.layers))
    for time in times {
      let frame = evaluator.frame(progress: time)
      let transform = body(time)
      for state in frame.layers {
        for corner in corners(state.frame) {
          let expected = transform.apply(x: corner.x - group.pivot.x, y: corner.y - group.pivot.y)
          let actual = drawn(state, corner)
          #expect(
            abs(actual.x - (expected.x + group.pivot.x)) < 1e-9
              && abs(actual.y - (expected.y + group.pivot.y)) < 1e-9,
            "\(state.id) corner \(corner) at \(time): \(actual)")
        }
      }
    }
  }

  @Test func anchorsMeetAtThePivotEvenOutsideTheLayers() {
    let group = RigidGroup(
      Self.screen, pivotAt: Point(x: 0, y: 0.5),
      of: Rect(x: 0, y: 0, width: Self.container.width, height: Self.container.height))
    #expect(group.pivot == Point(x: 0, y: 422))
    for layer in group.layers {
      let frame = layer.initial.frame
      let anchor = layer.initial.anchor
      #expect(abs(frame.x + anchor.x * frame.width) < 1e-12)
      #expect(abs(frame.y + anchor.y * frame.height - 422) < 1e-12)
    }
    // The bar's anchor lies far below it: y = 422 / 91.
    #expect(abs(group.layers[1].initial.anchor.y - 422.0 / 91) < 1e-12)
  }

  @Test func aLayerTooThinForItsAnchorKeepsItOnThatAxis() throws {
    // Subnormal and tiny extents far from the pivot: (422 − 0) / the least subnormal is infinite and
    // 195 / 1e-300 passes the timeline's bounds, so those axes keep the centre.
    let thin = [
      Rect(x: 0, y: 0, width: 390, height: .leastNonzeroMagnitude),
      Rect(x: 0, y: 0, width: 1e-300, height: 844),
      Rect(x: 0, y: 0, width: 0, height: 844),
    ].enumerated().map { index, frame in
      TimelineLayer(id: "thin-\(index)", initial: LayerAttributes(frame: frame))
    }
    let group = RigidGroup(thin, pivot: Point(x: 195, y: 422))
    #expect(
      group.layers.map(\.initial.anchor) == [
        Point(x: 0.5, y: 0.5), Point(x: 0.5, y: 422.0 / 844), Point(x: 0.5, y: 0.5),
      ])
    _ = try Timeline(duration: 1, layers: group.layers)
  }

  @Test func aScreenTurnsAndShrinksAboutOnePointAsOneBody() throws {
    var group = RigidGroup(Self.screen, pivot: Point(x: 195, y: 600))
    try group.play(Motion(.rotationZ, from: 0, to: 0.6), .forward)
    try group.play(Motion(.scale, from: 1, to: 0.5), .forward)
    try Self.expectRigid(
      group,
      body: { t in
        Transform3D.scale(x: 1 - 0.5 * t, y: 1 - 0.5 * t)
          .concatenating(.rotation(angle: 0.6 * t, x: 0, y: 0, z: 1))
      }, at: [0, 0.3, 0.7, 1])
  }

  @Test func aScreenTurnsInPerspectiveAboutItsLeftEdgeAsOneBody() throws {
    var group = RigidGroup(Self.screen, pivot: Point(x: 0, y: 422))
    try group.set(.perspective, to: .number(-1.0 / 500))
    try group.play(Motion(.rotationY, from: 0, to: -.pi / 2, over: 0...0.8), .backward)
    // Backward: from −π/2 to 0 over [0.2, 1].
    try Self.expectRigid(
      group,
      body: { t in
        let angle = t <= 0.2 ? -Double.pi / 2 : -Double.pi / 2 * (1 - (t - 0.2) / 0.8)
        return Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0)
          .concatenating(.perspective(m34: -1.0 / 500))
      }, at: [0, 0.2, 0.5, 0.9])
    // At rest at the end every layer is untouched.
    let last = TimelineEvaluator(try Timeline(duration: 1, layers: group.layers)).frame(progress: 1)
    #expect(last.layers.allSatisfy { $0.transform == .identity })
  }

  @Test func propertiesThatWouldBreakTheBodyAreRefused() {
    var group = RigidGroup(Self.screen, pivot: Point(x: 0, y: 0))
    for property in [LayerProperty.frame, .position, .size, .anchor, .z, .background] {
      #expect(throws: EngineError.self) {
        try group.play(asWritten: Motion(property, from: .number(0), to: .number(1)))
      }
    }
    #expect(group.layers.allSatisfy { $0.tracks.isEmpty })
  }
}

/// `DirectedMotion` and `play(asWritten:)`: motions that are not mirrors of each other.
@Suite struct DirectedMotionTests {
  static func alpha(_ layer: TimelineLayer, at time: Double) throws -> Double {
    let timeline = try Timeline(duration: 1, layers: [layer])
    return TimelineEvaluator(timeline).frame(progress: time).layers[0].alpha
  }

  static func card() -> TimelineLayer {
    TimelineLayer(
      id: "card", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
  }

  @Test func eachDirectionPlaysItsOwnMotionAsWritten() throws {
    // The outgoing screen fades out over the first half both ways, faster when dismissed.
    let fade = DirectedMotion(
      forward: Motion(.alpha, from: 1, to: 0, over: 0...0.5),
      backward: Motion(.alpha, from: 1, to: 0, over: 0...0.25))
    var forward = Self.card()
    forward.play(fade, .forward)
    var backward = Self.card()
    backward.play(fade, .backward)
    #expect(try Self.alpha(forward, at: 0) == 1)
    #expect(abs(try Self.alpha(forward, at: 0.25) - 0.5) < 1e-12)
    #expect(try Self.alpha(forward, at: 0.5) == 0)
    #expect(try Self.alpha(backward, at: 0) == 1)
    #expect(abs(try Self.alpha(backward, at: 0.125) - 0.5) < 1e-12)
    #expect(try Self.alpha(backward, at: 0.25) == 0)
    // The mirror would have faded in instead, ending at 1.
    var mirrored = Self.card()
    mirrored.play(fade.forward, .backward)
    #expect(try Self.alpha(mirrored, at: 1) == 1)
    #expect(try Self.alpha(backward, at: 1) == 0)
  }

  @Test func asWrittenIgnoresTheDirection() throws {
    var layer = Self.card()
    layer.play(asWritten: Motion(.alpha, from: 0, to: 1, over: 0.5...1))
    #expect(try Self.alpha(layer, at: 0.5) == 0)
    #expect(abs(try Self.alpha(layer, at: 0.75) - 0.5) < 1e-12)
    #expect(PlayDirection.backward.choose(forward: 1, backward: 2) == 2)
    #expect(PlayDirection.forward.choose(forward: 1, backward: 2) == 1)
  }
}
