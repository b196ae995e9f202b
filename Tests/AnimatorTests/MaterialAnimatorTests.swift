import Foundation
import PluginCheck
import Testing
import TransitionJSON
import TransitionKit

/// The Material motion animators of `config/animators` (docs/animators-material.md), read as
/// the plugin host reads them and evaluated by the engine: what each draws at the fade-through
/// points, on its example scene and on layouts of other sizes.
@Suite struct MaterialAnimatorTests {
  // Reference figures from the Material motion system, independent of the files.
  static let emphasized = TimingCurve.cubicBezier(x1: 0.2, y1: 0, x2: 0, y2: 1)
  static let slideDistance = 30.0
  static let fadeThrough = 0.35
  static let containerFadeThrough = 0.3
  static let scrimAlpha = 0.32

  static let animators = [
    "material-container-transform", "material-shared-axis-x", "material-shared-axis-y",
    "material-shared-axis-z", "material-fade-through",
  ]

  /// The context of `config/scenes/<name>.json`, optionally with `params` for the animator.
  static func scene(_ name: String, params: [String: Double] = [:]) throws -> TransitionContext {
    var context = try CheckScene(path: "\(DrawnGoldenTests.repository)/config/scenes/\(name).json")
      .context
    if !params.isEmpty {
      context.hints["params"] = .object(params.mapValues { .number($0) })
    }
    return context
  }

  func timeline(_ animator: String, _ context: TransitionContext) throws -> Timeline {
    try DataAnimators.timeline(animator, context)
  }

  /// The frame at relative time `time`: the keyframes' own clock, before the overall curve.
  func frame(_ timeline: Timeline, atRelative time: Double) throws -> Frame {
    try timeline.linearized.frame(at: time)
  }

  func drawnScreen(_ frame: Frame, is screen: Screen, _ container: Size) -> Bool {
    CoarseRaster(frame, container: container)
      .largestDifference(from: CoarseRaster(screen, container: container)) < 1e-9
  }

  // MARK: Durations and curves

  @Test(arguments: animators)
  func everyOperationPlaysWithTheEmphasizedEasingNeverMirrored(_ animator: String) throws {
    let loaded = try DataAnimators.load(animator)
    for operation in loaded.operations {
      let expected = animator == "material-container-transform" ? [0.5, 0.4] : [0.45]
      #expect(expected.contains(loaded.defaultDuration(for: operation)), "\(animator) \(operation)")
    }
    let context = try Self.scene(
      animator == "material-container-transform"
        ? "material-container-transform-dismiss" : "\(animator)-pop")
    #expect(try timeline(animator, context).curve == Self.emphasized, "\(animator)")
  }

  // MARK: Shared axis x and y

  @Test(arguments: ["x", "y"])
  func sharedAxisForwardStartsOnTheFromScreenWithTheIncomingOffsetAndTransparent(axis: String)
    throws
  {
    let animator = "material-shared-axis-\(axis)"
    let context = try Self.scene("\(animator)-push")
    let timeline = try timeline(animator, context)
    let first = timeline.frame(at: 0)
    #expect(drawnScreen(first, is: context.from, context.container))
    for layer in context.to.layers {
      let state = try first.state(layer.id)
      let offset =
        axis == "x"
        ? state.drawnRect.x - layer.frame.x : state.drawnRect.y - layer.frame.y
      #expect(close(offset, Self.slideDistance), "\(layer.id) starts 30 pt ahead on \(axis)")
      #expect(state.alpha == 0, "\(layer.id)")
    }
    #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
  }

  @Test(arguments: ["x", "y"])
  func sharedAxisFadesTheOutgoingOutByTheThresholdAndTheIncomingInAfterIt(axis: String) throws {
    let animator = "material-shared-axis-\(axis)"
    for operation in ["push", "pop"] {
      let context = try Self.scene("\(animator)-\(operation)")
      let timeline = try timeline(animator, context)
      // Forward moves towards −axis, backward towards +axis: both screens the same way.
      let direction = operation == "push" ? -1.0 : 1.0
      let before = try frame(timeline, atRelative: Self.fadeThrough / 2)
      let at = try frame(timeline, atRelative: Self.fadeThrough)
      let after = try frame(timeline, atRelative: (1 + Self.fadeThrough) / 2)
      for layer in context.from.layers {
        #expect(try before.state(layer.id).alpha > 0.4, "\(operation) \(layer.id)")
        #expect(try at.state(layer.id).alpha < 1e-9, "\(operation) \(layer.id) faded out")
        let moved = try at.state(layer.id).drawnRect
        let shift = axis == "x" ? moved.x - layer.frame.x : moved.y - layer.frame.y
        #expect(close(shift, direction * Self.slideDistance * Self.fadeThrough))
      }
      for layer in context.to.layers {
        #expect(try at.state(layer.id).alpha < 1e-9, "\(operation) \(layer.id) not yet in")
        #expect(try after.state(layer.id).alpha > 0.4, "\(operation) \(layer.id)")
        let moved = try at.state(layer.id).drawnRect
        let shift = axis == "x" ? moved.x - layer.frame.x : moved.y - layer.frame.y
        #expect(close(shift, -direction * Self.slideDistance * (1 - Self.fadeThrough)))
      }
    }
  }

  @Test func sharedAxisDistanceAndThresholdAreKnobs() throws {
    let context = try Self.scene(
      "material-shared-axis-x-pop", params: ["slideDistance": 80, "fadeThrough": 0.5])
    let timeline = try timeline("material-shared-axis-x", context)
    let first = timeline.frame(at: 0)
    let half = try frame(timeline, atRelative: 0.5)
    for layer in context.to.layers {
      #expect(close(try first.state(layer.id).drawnRect.x, layer.frame.x - 80))
      #expect(try half.state(layer.id).alpha < 1e-9)
    }
    for layer in context.from.layers {
      #expect(try half.state(layer.id).alpha < 1e-9)
      #expect(try frame(timeline, atRelative: 0.4).state(layer.id).alpha > 0)
    }
  }

  // MARK: Shared axis z

  /// `rect` scaled by `scale` about the container's centre.
  func scaledAboutCentre(_ rect: Rect, _ scale: Double, _ container: Size) -> Rect {
    let cx = container.width / 2
    let cy = container.height / 2
    return Rect(
      x: cx + (rect.x - cx) * scale, y: cy + (rect.y - cy) * scale, width: rect.width * scale,
      height: rect.height * scale)
  }

  @Test func sharedAxisZScalesBothScreensAboutTheCentreOneWayForwardAndTheOtherBackward() throws {
    let animator = "material-shared-axis-z"
    // Forward: outgoing 1 → 1.1, incoming 0.8 → 1; backward: outgoing 1 → 0.8, incoming 1.1 → 1.
    for (operation, outgoingEnd, incomingStart) in [("push", 1.1, 0.8), ("pop", 0.8, 1.1)] {
      let context = try Self.scene("\(animator)-\(operation)")
      let timeline = try timeline(animator, context)
      let first = timeline.frame(at: 0)
      let end = try frame(timeline, atRelative: 1 - 1e-12)
      #expect(drawnScreen(first, is: context.from, context.container), "\(operation)")
      for layer in context.to.layers {
        let state = try first.state(layer.id)
        #expect(
          close(
            state.drawnRect, scaledAboutCentre(layer.frame, incomingStart, context.container),
            within: 1e-9), "\(operation) \(layer.id)")
        #expect(state.alpha == 0)
      }
      for layer in context.from.layers {
        #expect(
          close(
            try end.state(layer.id).drawnRect,
            scaledAboutCentre(layer.frame, outgoingEnd, context.container), within: 1e-6),
          "\(operation) \(layer.id)")
        #expect(try frame(timeline, atRelative: Self.fadeThrough).state(layer.id).alpha < 1e-9)
      }
      #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
    }
  }

  // MARK: Fade through

  @Test(arguments: ["push", "pop"])
  func fadeThroughBringsTheIncomingInLastWhicheverTheOperation(operation: String) throws {
    let context = try Self.scene("material-fade-through-\(operation)")
    let timeline = try timeline("material-fade-through", context)
    #expect(timeline.curve == Self.emphasized, "not mirrored for \(operation)")
    let first = timeline.frame(at: 0)
    #expect(drawnScreen(first, is: context.from, context.container))
    for layer in context.to.layers {
      let state = try first.state(layer.id)
      #expect(
        close(
          state.drawnRect, scaledAboutCentre(layer.frame, 0.92, context.container), within: 1e-9))
    }
    for time in stride(from: 0.0, through: 1.0, by: 0.05) {
      let drawn = try frame(timeline, atRelative: time)
      let outgoing = try context.from.layers.map { try drawn.state($0.id).alpha }.max() ?? 0
      let incoming = try context.to.layers.map { try drawn.state($0.id).alpha }.max() ?? 0
      #expect(outgoing == 0 || incoming == 0, "\(operation) at \(time): never both at once")
      if time < Self.fadeThrough - 1e-9 { #expect(outgoing > 0 && incoming == 0, "at \(time)") }
      if time > Self.fadeThrough + 1e-9 { #expect(outgoing == 0 && incoming > 0, "at \(time)") }
      for layer in context.from.layers {
        #expect(try drawn.state(layer.id).drawnRect == layer.frame, "the outgoing does not move")
      }
    }
    #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
  }

  // MARK: Container transform

  @Test func containerTransformGrowsTheCardIntoTheScreenWhileItsContentFadesThrough() throws {
    let context = try Self.scene("material-container-transform-present")
    let timeline = try timeline("material-container-transform", context)
    let card = try #require(context.from.layer(context.selected)).frame
    let screen = Rect(x: 0, y: 0, width: context.container.width, height: context.container.height)
    #expect(drawnScreen(timeline.frame(at: 0), is: context.from, context.container))
    #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
    for time in [0.0, 0.1, 0.3, 0.5, 0.7, 0.85, 1.0] {
      let drawn = try frame(timeline, atRelative: time)
      let container = try drawn.state("material-container-transform.container").drawnRect
      #expect(close(container, lerp(card, screen, time), within: 1e-9), "bounds at \(time)")
      let copy = try drawn.state("material-container-transform.card")
      #expect(
        (copy.alpha > 0) == (time < Self.containerFadeThrough), "card content at \(time)")
      #expect(
        close(try drawn.state("material-container-transform.scrim").alpha, Self.scrimAlpha * time))
      // Nothing of the detail shows before the fade-through point, and nothing that shows lies
      // outside the container (the format has no clip).
      for layer in context.to.layers {
        let state = try drawn.state(layer.id)
        if time <= Self.containerFadeThrough { #expect(state.alpha == 0, "\(layer.id) at \(time)") }
        if state.alpha > 0 {
          let rect = state.drawnRect
          #expect(
            rect.minX >= container.minX - 1e-6 && rect.maxX <= container.maxX + 1e-6
              && rect.minY >= container.minY - 1e-6 && rect.maxY <= container.maxY + 1e-6,
            "\(layer.id) at \(time) outside the container")
          // Scaled uniformly, as Material fits the content to the container's width.
          #expect(close(rect.width / layer.frame.width, rect.height / layer.frame.height))
        }
      }
    }
    // The card's content keeps its shape, scaled with the container's width, top-aligned.
    let middle = try frame(timeline, atRelative: 0.2)
    let copy = try middle.state("material-container-transform.card").drawnRect
    let container = try middle.state("material-container-transform.container").drawnRect
    #expect(close(copy.width, container.width) && close(copy.minY, container.minY))
    #expect(close(copy.height / copy.width, card.height / card.width))
  }

  @Test func containerTransformDismissIsThePresentMirroredInTime() throws {
    let animator = "material-container-transform"
    try expectMirrored(
      try timeline(animator, try Self.scene("material-container-transform-present")),
      try timeline(animator, try Self.scene("material-container-transform-dismiss")),
      animator: animator, at: [0.05, 0.2, 0.5, 0.8], note: "example scenes")
  }

  @Test func containerTransformWithMatchGrowsTheCardIntoTheMatchedLayer() throws {
    let context = try Self.scene("material-container-transform-matched-present")
    let timeline = try timeline("material-container-transform", context)
    let card = try #require(context.from.layer(context.selected)).frame
    let matchID = try #require(context.match)
    let sheet = try #require(context.to.layer(matchID)).frame
    #expect(drawnScreen(timeline.frame(at: 0), is: context.from, context.container))
    #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
    for time in [0.0, 0.25, 0.5, 1.0] {
      let drawn = try frame(timeline, atRelative: time)
      let morph = try drawn.state(matchID)
      let bounds = morph.drawnRect
      #expect(close(bounds, lerp(card, sheet, time), within: 1e-9) && morph.alpha == 1)
      let copy = try drawn.state("material-container-transform.card").drawnRect
      #expect(close(copy.midX, bounds.midX) && close(copy.minY, bounds.minY))
      for layer in context.to.layers where layer.id != matchID {
        #expect(close(try drawn.state(layer.id).alpha, time), "\(layer.id) fades in around it")
      }
    }
    #expect(drawnScreen(timeline.frame(at: 1), is: context.to, context.container))
  }

  // MARK: The drawn-frame rules on other layouts

  struct Case: Sendable, CustomStringConvertible {
    var animator: String
    var context: TransitionContext
    var note: String
    var description: String { "\(animator) \(context.operation.rawValue) \(note)" }
  }

  static let layoutCases: [Case] = {
    var cases: [Case] = []
    for layout in Layout.all {
      for matched in [false, true] {
        let note = matched ? "matched \(layout)" : "\(layout)"
        cases.append(
          Case(
            animator: "material-container-transform",
            context: Scenes.zoomPresent(layout, matched: matched), note: note))
        cases.append(
          Case(
            animator: "material-container-transform",
            context: Scenes.zoomDismiss(layout, matched: matched), note: note))
      }
      cases.append(
        Case(
          animator: "material-container-transform", context: Scenes.albumPush(layout),
          note: "\(layout)"))
      cases.append(
        Case(
          animator: "material-container-transform", context: Scenes.albumPop(layout),
          note: "\(layout)"))
      for animator in animators.dropFirst() {
        for operation in TransitionOperation.allCases
        where animator != "material-shared-axis-x" || operation == .push || operation == .pop {
          cases.append(
            Case(animator: animator, context: Scenes.slide(operation, layout), note: "\(layout)"))
        }
      }
    }
    return cases
  }()

  @Test(arguments: layoutCases)
  func firstLastCancelledAndNearTheEnds(_ testCase: Case) throws {
    let timeline = try DataAnimators.timeline(testCase.animator, testCase.context)
    let container = testCase.context.container
    #expect(drawnScreen(timeline.frame(at: 0), is: testCase.context.from, container), "first")
    #expect(drawnScreen(timeline.frame(at: 1), is: testCase.context.to, container), "last")
    let (finished, cancelled) = try cancelledFrame(timeline, after: 0.5)
    #expect(finished == false)
    #expect(drawnScreen(cancelled, is: testCase.context.from, container), "cancelled")
    let step = 0.001 / timeline.duration
    for (end, near) in [(0.0, step), (1.0, 1 - step)] {
      let share = CoarseRaster(timeline.frame(at: end), container: container)
        .changedShare(from: CoarseRaster(timeline.frame(at: near), container: container))
      #expect(share <= DrawnFrameTests.jumpAllowance, "\(share * 100)% jumps at \(end)")
    }
  }
}
