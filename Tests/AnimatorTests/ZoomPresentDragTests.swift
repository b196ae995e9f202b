import Testing
import TransitionKit

/// zoom-present's dismiss by dragging: the finger holds the detail (with match, the matched
/// picture), a drag down shrinks it continuously, a third of the container's height clearly,
/// and the release lands it exactly on its cell or back on the full screen.
@Suite struct ZoomPresentDragTests {
  static let cases: [(Layout, Bool)] = Layout.all.flatMap { [($0, false), ($0, true)] }

  @Test(arguments: cases)
  func theDismissHoldsTheDetailAndDragsDownOverTheContainersHeight(
    layout: Layout, matched: Bool
  ) throws {
    let timeline = try DataAnimators.timeline(
      "zoom-present", Scenes.zoomDismiss(layout, matched: matched))
    let gesture = try #require(timeline.gesture)
    #expect(gesture.axis == .y)
    #expect(gesture.direction == 1)
    #expect(gesture.range == layout.container.height)
    let expected =
      matched
      ? ["detail-image", "zoom-present.origin"]
      : [
        "zoom-present.window", "zoom-present.from-background", "detail-image", "detail-caption",
        "detail-toolbar",
        "zoom-present.origin",
      ]
    #expect(gesture.hold == expected)
    let present = try DataAnimators.timeline(
      "zoom-present", Scenes.zoomPresent(layout, matched: matched))
    #expect(present.gesture == nil, "presenting follows no finger")
  }

  /// The detail drawn while a finger that went down on the picture drags straight down by
  /// `drag` points.
  static func dragged(_ layout: Layout, matched: Bool, by drag: Double) throws -> (
    frame: Frame, grab: Point, touch: Point
  ) {
    let timeline = try DataAnimators.timeline(
      "zoom-present", Scenes.zoomDismiss(layout, matched: matched))
    let evaluator = TimelineEvaluator(timeline)
    var follower = try #require(GestureFollower(evaluator))
    let picture = try #require(Scenes.detail(layout).layer("detail-image"))
    let grab = Point(x: picture.frame.midX + 30, y: picture.frame.midY)
    _ = follower.move(to: grab, progress: 0, evaluator: evaluator)
    let touch = Point(x: grab.x - drag / 4, y: grab.y + drag)
    let progress = follower.move(to: touch, progress: 0, evaluator: evaluator)
    var frame = evaluator.frame(progress: progress)
    follower.apply(to: &frame, at: 0)
    return (frame, grab, touch)
  }

  @Test(arguments: cases)
  func draggingDownShrinksTheHeldPictureUnderTheFinger(layout: Layout, matched: Bool) throws {
    let full = layout.container.width
    var widths: [Double] = []
    for step in 0...12 {
      let drag = layout.container.height * Double(step) / 24
      let (frame, grab, touch) = try Self.dragged(layout, matched: matched, by: drag)
      let picture = try frame.state("detail-image")
      let drawn = picture.project(grab)
      #expect(
        abs(drawn.x - touch.x) < 1 && abs(drawn.y - touch.y) < 1,
        "the grabbed point is drawn at \(drawn), the finger is at \(touch)")
      widths.append(picture.drawnRect.width)
    }
    for (narrower, wider) in zip(widths.dropFirst(), widths) {
      #expect(narrower <= wider + 1e-9, "the shrink follows the drag: \(widths)")
    }
    #expect(widths[0] == full)
    let third = try Self.dragged(layout, matched: matched, by: layout.container.height / 3)
    let width = try third.frame.state("detail-image").drawnRect.width
    #expect(width < 0.9 * full, "a third of the height leaves \(width) of \(full) points")
    // The grid is drawn behind the detail all along.
    let grid = try third.frame.state("photo-\(layout.selectedIndex)")
    #expect(grid.z < (try third.frame.state("detail-image")).z)
  }

  @Test(arguments: Layout.all)
  func withMatchTheRestOfTheDetailFadesAsTheDragGoesOn(layout: Layout) throws {
    let near = try Self.dragged(layout, matched: true, by: 0)
    let far = try Self.dragged(layout, matched: true, by: layout.container.height * 0.8)
    #expect(try near.frame.state("detail-caption").alpha == 1)
    #expect(try far.frame.state("detail-caption").alpha < 1)
    // Only the picture is held: the caption stays where the timeline draws it.
    let timeline = try DataAnimators.timeline(
      "zoom-present", Scenes.zoomDismiss(layout, matched: true))
    let own = TimelineEvaluator(timeline).frame(progress: far.frame.progress)
    #expect(try far.frame.state("detail-caption") == (try own.state("detail-caption")))
  }
}
