import Foundation
import PluginCheck
import Testing
import TransitionKit

/// cube-turn, the example plugin on the Swift SDK, loaded from libCubeTurn.so through the C ABI
/// and evaluated by the engine: two screens turning as two faces of a cube.
@Suite struct CubeTurnTests {
  let animator: AnimatorUnderTest
  init() throws { animator = try Animators.cubeTurn() }

  // Independent reference values from the animator's documentation: the eye two widths in
  // front of the screen, so a face faces it while (E + d)·cos φ > d, cos φ > 1/5.
  static let eyeDistance = 2.0
  static let facingStart = asin(0.2) / (Double.pi / 2)

  /// The ids of a screen's layers with its background layer first.
  func faceIDs(_ screen: Screen, side: String) -> [String] {
    (screen.background == nil ? [] : ["cube-turn.\(side)-background"]) + screen.layers.map(\.id)
  }

  /// A face of a cube of edge `w`, turned by `angle` about the vertical axis through the
  /// container's centre `w / 2` behind the screen, seen with the eye `2w` in front of it.
  func body(_ angle: Double, _ container: Size) -> Transform3D {
    let halfEdge = container.width / 2
    return Transform3D.translation(x: 0, y: 0, z: halfEdge)
      .concatenating(.rotation(angle: angle, x: 0, y: 1, z: 0))
      .concatenating(.translation(x: 0, y: 0, z: -halfEdge))
      .concatenating(.perspective(m34: -1 / (Self.eyeDistance * container.width)))
  }

  /// Where the container point `point` of a face is drawn, the face turned by `angle`.
  func drawn(_ point: Point, turnedBy angle: Double, _ container: Size) -> Point {
    let moved = body(angle, container).apply(
      x: point.x - container.width / 2, y: point.y - container.height / 2)
    return Point(x: moved.x + container.width / 2, y: moved.y + container.height / 2)
  }

  @Test func declaresItsOperationsDurationAndCurve() throws {
    #expect(animator.operations == [.present, .dismiss])
    #expect(animator.defaultDuration == 0.6)
    for operation in [TransitionOperation.present, .dismiss] {
      let timeline = try animator.timeline(Scenes.slide(operation, Layout.all[0]))
      #expect(timeline.duration == 0.6 && timeline.curve == .easeInEaseOut, "\(operation)")
    }
  }

  /// Each screen turns as one body: every layer is drawn where the face's rotation about the
  /// axis behind the screen puts it, the presenting face by −π/2 and the presented one from
  /// π/2 to 0, linearly in relative time.
  @Test(arguments: Layout.all)
  func eachScreenTurnsAsAFaceOfTheCube(layout: Layout) throws {
    let context = Scenes.slide(.present, layout)
    let container = layout.container
    let timeline = try animator.timeline(context).linearized
    for time in [0.2, 0.4, 0.5, 0.7, 0.85] {
      let frame = timeline.frame(at: time)
      for (screen, side, angle) in [
        (context.from, "from", -Double.pi / 2 * time), (context.to, "to", .pi / 2 * (1 - time)),
      ] {
        for id in faceIDs(screen, side: side) {
          let state = try frame.state(id)
          #expect(state.frame == (screen.layer(id)?.frame ?? state.frame), "\(id)")
          for corner in [
            Point(x: state.frame.minX, y: state.frame.minY),
            Point(x: state.frame.maxX, y: state.frame.maxY),
          ] {
            let expected = drawn(corner, turnedBy: angle, container)
            #expect(close(state.project(corner), expected), "\(id) at \(time) in \(layout)")
          }
        }
      }
    }
  }

  /// The faces share the cube's edge: the presenting screen's right edge is drawn on the
  /// presented screen's left edge, and the two never overlap while both are drawn.
  @Test(arguments: Layout.all)
  func theFacesMeetAtTheCubesEdgeAndDoNotOverlap(layout: Layout) throws {
    let context = Scenes.slide(.present, layout)
    let (width, height) = (layout.container.width, layout.container.height)
    let timeline = try animator.timeline(context)
    for time in stride(from: 0.05, through: 0.95, by: 0.05) {
      let frame = timeline.frame(at: time)
      let leaving = try frame.state("cube-turn.from-background")
      let arriving = try frame.state("cube-turn.to-background")
      for y in [0, height / 2, height] {
        #expect(
          close(leaving.project(Point(x: width, y: y)), arriving.project(Point(x: 0, y: y))),
          "at \(time) in \(layout)")
      }
      guard !leaving.hidden, !arriving.hidden else { continue }
      #expect(leaving.drawnRect.maxX <= arriving.drawnRect.minX + 1e-6 * width, "at \(time)")
    }
  }

  /// A face is drawn only while it faces the eye, and it is switched where it is edge-on to
  /// the eye (drawn as a line), so nothing jumps.
  @Test(arguments: Layout.all)
  func aFaceIsDrawnOnlyWhileItFacesTheEye(layout: Layout) throws {
    let context = Scenes.slide(.present, layout)
    let timeline = try animator.timeline(context).linearized
    let fromIDs = faceIDs(context.from, side: "from")
    let toIDs = faceIDs(context.to, side: "to")
    let before = timeline.frame(at: Self.facingStart - 1e-3)
    let after = timeline.frame(at: Self.facingStart + 1e-3)
    for id in toIDs {
      #expect(try before.state(id).hidden && !after.state(id).hidden, "\(id) in \(layout)")
    }
    for id in fromIDs {
      #expect(try !before.state(id).hidden && !after.state(id).hidden)
      #expect(try !timeline.frame(at: 1 - Self.facingStart - 1e-3).state(id).hidden)
      #expect(try timeline.frame(at: 1 - Self.facingStart + 1e-3).state(id).hidden)
    }
    // At the switch each face is edge-on to the eye: its drawn width is (almost) nothing.
    let width = layout.container.width
    let arriving = try timeline.frame(at: Self.facingStart).state("cube-turn.to-background")
    let leaving = try timeline.frame(at: 1 - Self.facingStart).state("cube-turn.from-background")
    #expect(arriving.drawnRect.width < 1e-9 * width, "\(arriving.drawnRect)")
    #expect(leaving.drawnRect.width < 1e-9 * width, "\(leaving.drawnRect)")
    // A little later the arriving face is drawn and nearly as thin.
    let soon = try timeline.frame(at: Self.facingStart + 1e-3).state("cube-turn.to-background")
    #expect(soon.drawnRect.width > 0 && soon.drawnRect.width < 0.01 * width)
  }

  @Test(arguments: Layout.all)
  func dismissMirrorsPresent(layout: Layout) throws {
    let present = try animator.timeline(Scenes.slide(.present, layout))
    let dismiss = try animator.timeline(Scenes.slide(.dismiss, layout))
    try expectMirrored(
      present, dismiss, animator: "cube-turn", at: [0, 0.1, 0.3, 0.5, 0.8, 0.95, 1],
      note: "\(layout)")
    // And dismiss's own ends: the presented screen as the app had it, then the presenting one.
    let context = Scenes.slide(.dismiss, layout)
    for layer in context.from.layers {
      #expect(try dismiss.frame(at: 0).state(layer.id).matches(layer))
    }
    for layer in context.to.layers {
      #expect(try dismiss.frame(at: 1).state(layer.id).matches(layer))
    }
  }

  @Test func refusesAContainerWithoutAreaAndTurnsEmptyScreens() throws {
    for container in [Size(width: 0, height: 844), Size(width: 390, height: 0)] {
      let flat = TransitionContext(
        operation: .present, container: container, from: Screen(), to: Screen())
      guard case .failed(let message) = try animator.run(flat) else {
        Issue.record("a \(container) container was accepted")
        continue
      }
      #expect(message.contains("context.container must have a positive width and height"))
    }
    let empty = TransitionContext(
      operation: .dismiss, container: Size(width: 390, height: 844), from: Screen(), to: Screen())
    guard case .timeline = try animator.run(empty) else {
      Issue.record("empty screens did not give a timeline")
      return
    }
  }
}
