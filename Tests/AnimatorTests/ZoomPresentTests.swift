import Testing
import TransitionKit

/// zoom-present, loaded from libZoomPresent.so and evaluated by the engine.
@Suite struct ZoomPresentTests {
  let animator: AnimatorUnderTest
  init() throws { animator = try Animators.zoomPresent() }

  func origin(_ layout: Layout) throws -> Rect {
    let context = Scenes.zoomPresent(layout)
    guard let origin = context.from.layer(context.selected) else {
      throw PluginTestError(description: "no origin")
    }
    return origin.frame
  }

  /// Where the detail screen's scaling puts `rect` when the container maps onto `origin`.
  func zoomed(_ rect: Rect, into origin: Rect, container: Size) -> Rect {
    let sx = origin.width / container.width
    let sy = origin.height / container.height
    return Rect(
      x: origin.x + rect.x * sx, y: origin.y + rect.y * sy, width: rect.width * sx,
      height: rect.height * sy)
  }

  var containerRect: (Layout) -> Rect {
    { Rect(x: 0, y: 0, width: $0.container.width, height: $0.container.height) }
  }

  @Test func declaresItsOperationsAndDurations() throws {
    #expect(animator.operations == 0xC)
    #expect(animator.defaultDuration == 0.5)
    let present = try animator.timeline(Scenes.zoomPresent(Layout.all[0]))
    let dismiss = try animator.timeline(Scenes.zoomDismiss(Layout.all[0]))
    #expect(present.duration == 0.5 && dismiss.duration == 0.6)
    #expect(present.curve == .easeInEaseOut)
  }

  @Test(arguments: Layout.all)
  func presentStartsAsTheOriginAndLeavesTheGridAlone(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout)
    let origin = try origin(layout)
    let frame = try animator.timeline(context).frame(at: 0)
    for layer in context.from.layers {
      #expect(try frame.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    let background = try frame.state("zoom-present.to-background")
    #expect(close(background.drawnRect, origin), "the detail covers the origin exactly")
    for layer in context.to.layers {
      let state = try frame.state(layer.id)
      #expect(
        close(state.drawnRect, zoomed(layer.frame, into: origin, container: layout.container)))
      #expect(state.frame == layer.frame && state.alpha == 1 && !state.hidden)
      #expect(state.z > (try frame.state("photo-0").z), "the detail is over the grid")
    }
  }

  @Test(arguments: Layout.all)
  func presentEndsWithTheDetailAtItsFrames(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout)
    let frame = try animator.timeline(context).frame(at: 1)
    for layer in context.to.layers {
      #expect(try frame.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    let background = try frame.state("zoom-present.to-background")
    #expect(background.drawnRect == containerRect(layout) && background.transform == .identity)
    for layer in context.from.layers { #expect(try frame.state(layer.id).matches(layer)) }
  }

  @Test(arguments: Layout.all)
  func detailGrowsAsOneScreen(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout)
    let origin = try origin(layout)
    let timeline = try animator.timeline(context).linearized
    for time in [0.25, 0.5, 0.8] {
      let frame = timeline.frame(at: time)
      let screen = lerp(origin, containerRect(layout), time)
      #expect(close(try frame.state("zoom-present.to-background").drawnRect, screen))
      // Each layer sits where the whole screen's current scaling puts it.
      for layer in context.to.layers {
        let expected = Rect(
          x: screen.x + layer.frame.x * screen.width / layout.container.width,
          y: screen.y + layer.frame.y * screen.height / layout.container.height,
          width: layer.frame.width * screen.width / layout.container.width,
          height: layer.frame.height * screen.height / layout.container.height)
        #expect(close(try frame.state(layer.id).drawnRect, expected), "\(layer.id) at \(time)")
      }
    }
  }

  @Test(arguments: Layout.all)
  func dismissShrinksBackIntoTheOriginAndIsGone(layout: Layout) throws {
    let context = Scenes.zoomDismiss(layout)
    let origin = try origin(layout)
    let timeline = try animator.timeline(context)
    let first = timeline.frame(at: 0)
    for layer in context.from.layers { #expect(try first.state(layer.id).matches(layer)) }
    let last = timeline.frame(at: 1)
    for layer in context.from.layers {
      let state = try last.state(layer.id)
      #expect(
        close(state.drawnRect, zoomed(layer.frame, into: origin, container: layout.container)))
      #expect(state.hidden, "\(layer.id) is gone at the end")
    }
    #expect(try last.state("zoom-present.from-background").hidden)
    // The grid underneath is untouched throughout.
    for time in [0.0, 0.5, 1.0] {
      for layer in context.to.layers {
        #expect(try timeline.frame(at: time).state(layer.id).matches(layer))
      }
    }
    // Still visible just before the end, over the grid.
    #expect(!(try timeline.linearized.frame(at: 0.99).state("detail-image").hidden))
  }

  @Test(arguments: Layout.all)
  func dismissMirrorsPresent(layout: Layout) throws {
    let present = try animator.timeline(Scenes.zoomPresent(layout)).linearized
    let dismiss = try animator.timeline(Scenes.zoomDismiss(layout)).linearized
    try expectMirrored(
      present, dismiss, animator: "zoom-present", at: [0.1, 0.3, 0.5, 0.7, 1.0],
      note: "\(layout)")
  }

  @Test(arguments: Layout.all)
  func cancelledPresentAndDismissEndAsTheyBegan(layout: Layout) throws {
    for context in [Scenes.zoomPresent(layout), Scenes.zoomDismiss(layout)] {
      let timeline = try animator.timeline(context)
      let (finished, frame) = try cancelledFrame(timeline, after: 0.7)
      #expect(finished == false)
      #expect(frame == timeline.frame(at: 0))
      #expect(frame != timeline.frame(at: 0.7))
    }
  }

  @Test func declinesWithoutASelectedOrigin() throws {
    var present = Scenes.zoomPresent(Layout.all[1])
    present.selected = nil
    guard case .declined = try animator.run(present) else {
      Issue.record("no selected: expected a decline")
      return
    }
    present.selected = "detail-image"  // on the detail's side, not the grid's
    guard case .declined = try animator.run(present) else {
      Issue.record("selected in the presented screen: expected a decline")
      return
    }
    var dismiss = Scenes.zoomDismiss(Layout.all[1])
    dismiss.selected = nil
    guard case .declined = try animator.run(dismiss) else {
      Issue.record("dismiss without selected: expected a decline")
      return
    }
  }

  @Test func refusesAContainerWithoutArea() throws {
    var context = Scenes.zoomPresent(Layout.all[0])
    context.container = Size(width: 0, height: 568)
    guard case .failed(let message) = try animator.run(context) else {
      Issue.record("expected an error")
      return
    }
    #expect(message.contains("zoom-present") && message.contains("container"))
  }
}
