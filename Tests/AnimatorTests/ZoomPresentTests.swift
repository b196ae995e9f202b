import PluginCheck
import Testing
import TransitionKit

/// zoom-present: the data animator config/animators/zoom-present.json, run as the plugin host
/// runs it and evaluated by the engine.
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

  // Independent reference values from the issue and the animator's documentation.
  static let crossFadeEnd = 0.2
  static let backdropFadeEnd = 0.5

  @Test func declaresItsOperationsDurationsAndCurves() throws {
    #expect(animator.operations == [.present, .dismiss])
    #expect(animator.defaultDuration == 0.5)
    for matched in [false, true] {
      let present = try animator.timeline(Scenes.zoomPresent(Layout.all[0], matched: matched))
      let dismiss = try animator.timeline(Scenes.zoomDismiss(Layout.all[0], matched: matched))
      #expect(present.duration == 0.5 && dismiss.duration == 0.6)
      #expect(present.curve == .easeInEaseOut, "present, matched: \(matched)")
      #expect(dismiss.curve == .easeInEaseOut, "dismiss, matched: \(matched)")
    }
  }

  @Test(arguments: Layout.all)
  func presentStartsAsTheGridWithTheOriginSnapshotOverTheTransparentDetail(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout)
    let origin = try origin(layout)
    let frame = try animator.timeline(context).frame(at: 0)
    for layer in context.from.layers {
      #expect(try frame.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    let background = try frame.state("zoom-present.to-background")
    #expect(close(background.drawnRect, origin), "the detail covers the origin exactly")
    #expect(background.alpha == 0)
    for layer in context.to.layers {
      let state = try frame.state(layer.id)
      #expect(
        close(state.drawnRect, zoomed(layer.frame, into: origin, container: layout.container)))
      #expect(state.frame == layer.frame && state.alpha == 0)
      #expect(state.z > (try frame.state("photo-0").z), "the detail is over the grid")
    }
    let snapshot = try frame.state("zoom-present.origin")
    let cell = try #require(context.from.layer(context.selected))
    #expect(snapshot.frame == origin && snapshot.transform == .identity && snapshot.alpha == 1)
    #expect(snapshot.content == cell.content && snapshot.background == cell.background)
    #expect(frame.layers.allSatisfy { $0.z <= snapshot.z }, "the snapshot is on top")
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
    #expect(background.alpha == 1)
    #expect(try frame.state("zoom-present.origin").isInvisible)
    for layer in context.from.layers { #expect(try frame.state(layer.id).matches(layer)) }
  }

  @Test(arguments: Layout.all)
  func detailGrowsAsOneScreenAndTheSnapshotCrossFadesIntoIt(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout)
    let origin = try origin(layout)
    let timeline = try animator.timeline(context).linearized
    for time in [0.1, 0.25, 0.5, 0.8] {
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
        let state = try frame.state(layer.id)
        #expect(close(state.drawnRect, expected), "\(layer.id) at \(time)")
        #expect(close(state.alpha, min(time / Self.crossFadeEnd, 1)), "\(layer.id) at \(time)")
      }
      let snapshot = try frame.state("zoom-present.origin")
      #expect(close(snapshot.drawnRect, screen), "the snapshot moves with the screen")
      #expect(close(snapshot.alpha, max(1 - time / Self.crossFadeEnd, 0)), "snapshot at \(time)")
    }
  }

  @Test(arguments: Layout.all)
  func dismissShrinksBackIntoTheOriginAndEndsOnTheCell(layout: Layout) throws {
    let context = Scenes.zoomDismiss(layout)
    let origin = try origin(layout)
    let timeline = try animator.timeline(context)
    let first = timeline.frame(at: 0)
    for layer in context.from.layers { #expect(try first.state(layer.id).matches(layer)) }
    #expect(try first.state("zoom-present.origin").isInvisible)
    let last = timeline.frame(at: 1)
    for layer in context.from.layers {
      let state = try last.state(layer.id)
      #expect(
        close(state.drawnRect, zoomed(layer.frame, into: origin, container: layout.container)))
      #expect(state.isInvisible, "\(layer.id) is gone at the end")
    }
    #expect(try last.state("zoom-present.from-background").isInvisible)
    let snapshot = try last.state("zoom-present.origin")
    #expect(snapshot.frame == origin && snapshot.transform == .identity && snapshot.alpha == 1)
    // The grid underneath is untouched throughout.
    for time in [0.0, 0.5, 1.0] {
      for layer in context.to.layers {
        #expect(try timeline.frame(at: time).state(layer.id).matches(layer))
      }
    }
    // Still visible just before the end, fading into the cell.
    let late = try timeline.linearized.frame(at: 0.9).state("detail-image")
    #expect(!late.hidden && close(late.alpha, 0.5))
  }

  @Test(arguments: Layout.all)
  func dismissMirrorsPresentWithTheCurvesApplied(layout: Layout) throws {
    for matched in [false, true] {
      let present = try animator.timeline(Scenes.zoomPresent(layout, matched: matched))
      let dismiss = try animator.timeline(Scenes.zoomDismiss(layout, matched: matched))
      try expectMirrored(
        present, dismiss, animator: "zoom-present", at: [0.0, 0.05, 0.1, 0.3, 0.5, 0.7, 0.95, 1.0],
        note: "\(layout), matched: \(matched)")
      // The same curve both ways: dismiss at 1 − p is present at p, progress for progress.
      for p in [0.1, 0.3, 0.7] {
        #expect(close(dismiss.curve.value(at: 1 - p), 1 - present.curve.value(at: p)))
      }
    }
  }

  @Test(arguments: Layout.all)
  func cancelledPresentAndDismissEndAsTheyBegan(layout: Layout) throws {
    for matched in [false, true] {
      for context in [
        Scenes.zoomPresent(layout, matched: matched), Scenes.zoomDismiss(layout, matched: matched),
      ] {
        let timeline = try animator.timeline(context)
        let (finished, frame) = try cancelledFrame(timeline, after: 0.7)
        #expect(finished == false)
        #expect(frame == timeline.frame(at: 0))
        #expect(frame != timeline.frame(at: 0.7))
      }
    }
  }

  @Test(arguments: Layout.all)
  func matchedPictureMorphsWithOneUniformScale(layout: Layout) throws {
    let context = Scenes.zoomPresent(layout, matched: true)
    let origin = try origin(layout)
    let picture = try #require(context.to.layer("detail-image")).frame
    // Fitted inside the origin, centred: the picture keeps its 4:3 shape.
    let fit = min(origin.width / picture.width, origin.height / picture.height)
    let start = Rect(
      x: origin.midX - picture.width * fit / 2, y: origin.midY - picture.height * fit / 2,
      width: picture.width * fit, height: picture.height * fit)
    let timeline = try animator.timeline(context).linearized
    for time in [0.0, 0.1, 0.25, 0.5, 0.8, 1.0] {
      let frame = timeline.frame(at: time)
      let state = try frame.state("detail-image")
      #expect(close(state.drawnRect, lerp(start, picture, time)), "picture at \(time)")
      #expect(close(state.transform.m11, state.transform.m22), "uniform scale at \(time)")
      #expect(close(state.alpha, min(time / Self.crossFadeEnd, 1)))
      let snapshot = try frame.state("zoom-present.origin")
      #expect(close(snapshot.drawnRect, lerp(origin, picture, time)), "snapshot at \(time)")
      #expect(close(snapshot.alpha, max(1 - time / Self.crossFadeEnd, 0)))
      // The rest of the detail does not move; it fades in.
      for id in ["zoom-present.to-background", "detail-caption", "detail-toolbar"] {
        let other = try frame.state(id)
        #expect(other.transform == .identity, "\(id) at \(time)")
        #expect(close(other.alpha, min(time / Self.backdropFadeEnd, 1)), "\(id) at \(time)")
      }
      // The origin cell is away while its picture travels.
      let cell = try frame.state(try #require(context.selected))
      #expect(cell.hidden == (time > 0 && time < 1), "origin cell at \(time)")
    }
  }

  @Test(arguments: Layout.all)
  func matchedDismissEndsOnTheCell(layout: Layout) throws {
    let context = Scenes.zoomDismiss(layout, matched: true)
    let origin = try origin(layout)
    let timeline = try animator.timeline(context)
    let last = timeline.frame(at: 1)
    for layer in context.to.layers { #expect(try last.state(layer.id).matches(layer)) }
    for layer in context.from.layers { #expect(try last.state(layer.id).isInvisible) }
    let snapshot = try last.state("zoom-present.origin")
    #expect(snapshot.frame == origin && snapshot.transform == .identity && snapshot.alpha == 1)
    let first = timeline.frame(at: 0)
    for layer in context.from.layers { #expect(try first.state(layer.id).matches(layer)) }
  }

  @Test func declinesWithoutASelectedOrigin() throws {
    var present = Scenes.zoomPresent(Layout.all[1])
    var dismiss = Scenes.zoomDismiss(Layout.all[1])
    present.selected = nil
    dismiss.selected = nil
    // zoom-present.json's `let` values read `selected`: a context without one is declined
    // before they are evaluated.
    for context in [present, dismiss] {
      guard case .declined = try animator.run(context) else {
        Issue.record("\(context.operation) without selected: expected a decline")
        continue
      }
    }
    present.selected = "detail-image"  // on the detail's side, not the grid's
    guard case .declined = try animator.run(present) else {
      Issue.record("selected in the presented screen: expected a decline")
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
    // The data file names the expression that fails on this container.
    #expect(message.contains("division by zero"), "\(message)")
  }
}
