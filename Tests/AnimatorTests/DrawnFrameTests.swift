import PluginCheck
import Testing
import TransitionKit

/// What a renderer draws (`CoarseRaster`, from layer geometry and opacity), for every built-in
/// animator (as data), the example plugin and every operation: the first frame is the `from`
/// screen drawn by itself, the last frame the `to` screen, a cancelled session ends on the
/// `from` screen, and no frame near either end jumps.
@Suite struct DrawnFrameTests {
  /// One animator on one context.
  struct Case: Sendable, CustomStringConvertible {
    var animator: String
    var context: TransitionContext
    var note: String
    var description: String { "\(animator) \(context.operation.rawValue) \(note)" }
  }

  static let cases: [Case] = {
    var cases: [Case] = []
    for layout in Layout.all {
      let note = "\(layout)"
      cases.append(Case(animator: "album-flip", context: Scenes.albumPush(layout), note: note))
      cases.append(Case(animator: "album-flip", context: Scenes.albumPop(layout), note: note))
      for matched in [false, true] {
        let form = matched ? "matched \(note)" : note
        cases.append(
          Case(
            animator: "zoom-present", context: Scenes.zoomPresent(layout, matched: matched),
            note: form))
        cases.append(
          Case(
            animator: "zoom-present", context: Scenes.zoomDismiss(layout, matched: matched),
            note: form))
      }
      for operation in TransitionOperation.allCases {
        cases.append(
          Case(animator: "default-slide", context: Scenes.slide(operation, layout), note: note))
      }
      for operation in [TransitionOperation.present, .dismiss] {
        cases.append(
          Case(animator: "cube-turn", context: Scenes.slide(operation, layout), note: note))
      }
    }
    return cases
  }()

  /// A jump is a change into an end that motion does not explain: between an end frame and
  /// the frame 1 ms from it, at most this share of the screen may change by more than 0.2 in a
  /// colour channel beyond what a move of less than 4 points explains. Screens here move at
  /// most about 2 points a millisecond; a picture swapped for another in the last instant
  /// changes a whole cell at once (2 to 5% of the screen in the test layouts).
  static let jumpAllowance = 0.005

  func timeline(_ testCase: Case) throws -> Timeline {
    try Animators.named(testCase.animator).timeline(testCase.context)
  }

  @Test(arguments: cases)
  func firstFrameIsTheFromScreenAndLastFrameTheToScreen(_ testCase: Case) throws {
    let timeline = try timeline(testCase)
    let container = testCase.context.container
    let first = CoarseRaster(timeline.frame(at: 0), container: container)
    let last = CoarseRaster(timeline.frame(at: 1), container: container)
    #expect(
      first.largestDifference(from: CoarseRaster(testCase.context.from, container: container))
        < 1e-9)
    #expect(
      last.largestDifference(from: CoarseRaster(testCase.context.to, container: container)) < 1e-9)
  }

  @Test(arguments: cases)
  func cancelledSessionEndsOnTheFromScreen(_ testCase: Case) throws {
    let timeline = try timeline(testCase)
    let container = testCase.context.container
    let (finished, frame) = try cancelledFrame(timeline, after: 0.5)
    #expect(finished == false)
    let drawn = CoarseRaster(frame, container: container)
    #expect(
      drawn.largestDifference(from: CoarseRaster(testCase.context.from, container: container))
        < 1e-9)
  }

  @Test(arguments: cases)
  func noFrameNearEitherEndJumps(_ testCase: Case) throws {
    let timeline = try timeline(testCase)
    let container = testCase.context.container
    let step = 0.001 / timeline.duration
    for (end, near) in [(0.0, step), (1.0, 1 - step)] {
      let atEnd = CoarseRaster(timeline.frame(at: end), container: container)
      let nearEnd = CoarseRaster(timeline.frame(at: near), container: container)
      let share = atEnd.changedShare(from: nearEnd)
      #expect(
        share <= Self.jumpAllowance,
        "\(share * 100)% of the screen jumps in the millisecond at progress \(end)")
    }
  }
}
