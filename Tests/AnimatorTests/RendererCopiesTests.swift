import FrameStreaming
import Testing
import TransitionKit
import TransitionWire

/// Renderers of one compiled timeline (``TransitionWire/FrameRenderer/renamed(to:)``, as the
/// daemon gives alike sessions) evaluate into one frame and share its template and field
/// texts: sessions rendered in turn, each at its own progress (before its photos' turn,
/// between, at rest at the end, going back, one following a finger), each get the line of
/// its own frame.
@Suite struct RendererCopiesTests {
  /// Session `index`'s progress at step `step`: each starts later than the one before, the
  /// last runs backwards.
  private static func progress(session index: Int, step: Int, sessions: Int) -> Double {
    let linear = min(max(Double(step - 9 * index) / 40, 0), 1)
    return index == sessions - 1 ? 1 - linear : linear
  }

  /// Renders `steps` frames of `sessions` sessions in turn with copies of one renderer, each
  /// line checked against the frame evaluated afresh at that progress by a plain encoder;
  /// session 0 follows a finger dragging down from `grab` when the timeline has a gesture.
  private func expectCopiesWriteTheirSessionsFrames(
    _ timeline: Timeline, grab: Point = .zero, sessions: Int = 4, steps: Int = 70
  ) {
    let prototype = FrameRenderer(session: "prototype", timeline: timeline)
    let evaluator = prototype.evaluator
    var copies = (0..<sessions).map { prototype.renamed(to: "s\($0)") }
    var follower = GestureFollower(evaluator)
    var movedByTheFinger = 0
    for step in 0..<steps {
      for index in 0..<sessions {
        var progress = Self.progress(session: index, step: step, sessions: sessions)
        var fresh: Frame
        let copied: [UInt8]
        if index == 0, var following = follower {
          let touch = Point(x: grab.x - Double(step), y: grab.y + 4 * Double(step))
          progress = following.move(to: touch, progress: 0, evaluator: evaluator)
          follower = following
          copied = copies[index].render(
            seq: step, progress: progress, following: following, at: 0
          ) { Array($0) }
          fresh = evaluator.frame(progress: progress)
          let unmoved = fresh
          following.apply(to: &fresh, at: 0)
          if fresh != unmoved { movedByTheFinger += 1 }
        } else {
          copied = copies[index].render(seq: step, progress: progress)
          fresh = evaluator.frame(progress: progress)
        }
        var plain = FrameEncoder()
        let expected = plain.encode(session: "s\(index)", seq: step, frame: fresh)
        #expect(
          String(decoding: copied, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
          "session \(index), step \(step)")
      }
    }
    if follower != nil { #expect(movedByTheFinger > steps / 2) }
  }

  @Test(arguments: Layout.all)
  func copiesOfTheAlbumPushWriteEachSessionsOwnFrame(layout: Layout) throws {
    expectCopiesWriteTheirSessionsFrames(
      try DataAnimators.timeline("album-flip", Scenes.albumPush(layout)))
  }

  @Test(arguments: Layout.all)
  func copiesOfADraggedZoomDismissWriteEachSessionsOwnFrame(layout: Layout) throws {
    let timeline = try DataAnimators.timeline("zoom-present", Scenes.zoomDismiss(layout))
    #expect(timeline.gesture != nil)
    let picture = try #require(Scenes.detail(layout).layer("detail-image"))
    expectCopiesWriteTheirSessionsFrames(
      timeline, grab: Point(x: picture.frame.midX + 30, y: picture.frame.midY))
  }
}
