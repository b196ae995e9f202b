import PluginCheck
import Testing
import TransitionKit

/// default-slide: the data animator config/animators/default-slide.json, run as the plugin host
/// runs it and evaluated by the engine.
@Suite struct DefaultSlideTests {
  let animator: AnimatorUnderTest
  init() throws { animator = try Animators.defaultSlide() }

  /// Layers of a screen including its background layer, with the background's expected frame.
  func screenIDs(_ screen: Screen, side: String) -> [String] {
    (screen.background == nil ? [] : ["default-slide.\(side)-background"]) + screen.layers.map(\.id)
  }

  /// The drawn rect of every layer of `screen` equals its context frame moved by (dx, dy).
  func expectScreen(
    _ screen: Screen, side: String, in frame: Frame, movedBy dx: Double, _ dy: Double,
    container: Size, _ note: String
  ) throws {
    for layer in screen.layers {
      let state = try frame.state(layer.id)
      #expect(close(state.drawnRect, layer.frame.offsetBy(dx: dx, dy: dy)), "\(layer.id) \(note)")
      #expect(state.alpha == 1 && !state.hidden && state.frame == layer.frame)
    }
    if screen.background != nil {
      let background = try frame.state("default-slide.\(side)-background")
      #expect(
        close(
          background.drawnRect,
          Rect(x: dx, y: dy, width: container.width, height: container.height)),
        "background \(note)")
    }
  }

  @Test func declaresItsOperationsDurationsAndCurve() throws {
    #expect(animator.operations == Set(TransitionOperation.allCases))
    #expect(animator.defaultDuration == 0.35)
    let layout = Layout.all[1]
    for (operation, duration) in [
      (TransitionOperation.push, 0.35), (.pop, 0.35), (.present, 0.5), (.dismiss, 0.5),
    ] {
      let timeline = try animator.timeline(Scenes.slide(operation, layout))
      #expect(timeline.duration == duration, "\(operation)")
      #expect(timeline.curve == .easeOut, "\(operation) decelerates")
    }
  }

  @Test(arguments: Layout.all)
  func pushSlidesInFromTheRightOverTheDimmedParallax(layout: Layout) throws {
    let context = Scenes.slide(.push, layout)
    let width = layout.container.width
    let timeline = try animator.timeline(context)
    let first = timeline.frame(at: 0)
    for layer in context.from.layers {
      #expect(try first.state(layer.id).matches(layer), "\(layer.id)")
    }
    try expectScreen(
      context.to, side: "to", in: first, movedBy: width, 0, container: layout.container,
      "starts off the right edge")
    #expect(try first.state("default-slide.dim").alpha == 0)

    let last = timeline.frame(at: 1)
    for layer in context.to.layers {
      #expect(try last.state(layer.id).matches(layer), "\(layer.id)")
    }
    try expectScreen(
      context.from, side: "from", in: last, movedBy: -0.3 * width, 0, container: layout.container,
      "ends 30% left")
    let dim = try last.state("default-slide.dim")
    #expect(close(dim.alpha, 0.1) && dim.background == Color.black)
    #expect(dim.frame == Rect(x: 0, y: 0, width: width, height: layout.container.height))

    let middle = try timeline.linearized.frame(at: 0.5)
    try expectScreen(
      context.to, side: "to", in: middle, movedBy: 0.5 * width, 0, container: layout.container,
      "halfway")
    try expectScreen(
      context.from, side: "from", in: middle, movedBy: -0.15 * width, 0,
      container: layout.container, "halfway")
    #expect(close(try middle.state("default-slide.dim").alpha, 0.05))

    // Paint order: the outgoing screen, the dimming, the incoming screen.
    let dimZ = dim.z
    for id in screenIDs(context.from, side: "from") { #expect(try last.state(id).z < dimZ) }
    for id in screenIDs(context.to, side: "to") { #expect(try last.state(id).z > dimZ) }
  }

  @Test(arguments: Layout.all)
  func popMirrorsPush(layout: Layout) throws {
    let push = try animator.timeline(Scenes.slide(.push, layout))
    let pop = try animator.timeline(Scenes.slide(.pop, layout))
    try expectMirrored(
      push, pop, animator: "default-slide", at: [0.0, 0.2, 0.5, 0.9, 1.0], note: "\(layout)")
    // And pop's own ends: the top screen as the app had it, then the one below restored.
    let context = Scenes.slide(.pop, layout)
    for layer in context.from.layers {
      #expect(try pop.frame(at: 0).state(layer.id).matches(layer))
    }
    for layer in context.to.layers { #expect(try pop.frame(at: 1).state(layer.id).matches(layer)) }
    #expect(try pop.frame(at: 1).state("default-slide.dim").alpha == 0)
  }

  @Test(arguments: Layout.all)
  func presentSlidesUpFromTheBottomAndDismissSlidesBackDown(layout: Layout) throws {
    let height = layout.container.height
    let present = Scenes.slide(.present, layout)
    let timeline = try animator.timeline(present)
    let first = timeline.frame(at: 0)
    for layer in present.from.layers { #expect(try first.state(layer.id).matches(layer)) }
    try expectScreen(
      present.to, side: "to", in: first, movedBy: 0, height, container: layout.container,
      "starts below the bottom edge")
    let last = timeline.frame(at: 1)
    for layer in present.to.layers { #expect(try last.state(layer.id).matches(layer)) }
    for layer in present.from.layers {
      #expect(try last.state(layer.id).matches(layer), "the presenter stays")
    }
    try expectScreen(
      present.to, side: "to", in: try timeline.linearized.frame(at: 0.25), movedBy: 0,
      0.75 * height,
      container: layout.container, "a quarter up")

    let dismiss = Scenes.slide(.dismiss, layout)
    let back = try animator.timeline(dismiss)
    for layer in dismiss.from.layers {
      #expect(try back.frame(at: 0).state(layer.id).matches(layer))
    }
    try expectScreen(
      dismiss.from, side: "from", in: back.frame(at: 1), movedBy: 0, height,
      container: layout.container, "ends below the bottom edge")
    for layer in dismiss.to.layers { #expect(try back.frame(at: 1).state(layer.id).matches(layer)) }
    #expect(back.frame(at: 1).layer("default-slide.dim") == nil, "a modal slide does not dim")
  }

  @Test(arguments: Layout.all)
  func cancelledSlidesEndAsTheyBegan(layout: Layout) throws {
    for operation in TransitionOperation.allCases {
      let timeline = try animator.timeline(Scenes.slide(operation, layout))
      let (finished, frame) = try cancelledFrame(timeline, after: 0.5)
      #expect(finished == false)
      #expect(frame == timeline.frame(at: 0), "\(operation)")
      #expect(frame != timeline.frame(at: 0.5))
    }
  }

  @Test func neverDeclines() throws {
    let container = Size(width: 390, height: 844)
    for operation in TransitionOperation.allCases {
      // No layers, no backgrounds, no selected: still a timeline.
      let empty = TransitionContext(
        operation: operation, container: container, from: Screen(), to: Screen())
      guard case .timeline = try animator.run(empty) else {
        Issue.record("\(operation) with empty screens did not give a timeline")
        continue
      }
      var tapped = Scenes.slide(operation, Layout.all[0])
      tapped.selected = tapped.from.layers.first?.id
      _ = try animator.timeline(tapped)
    }
  }
}
