import Testing
import TransitionPluginSDK

/// `show(only:)` and `hide(during:)`: a layer visible (or hidden) from the window's start until
/// just before its end.
@Suite struct VisibilityWindowTests {
  private func hiddenStates(_ configure: (inout TimelineLayer) -> Void, at times: [Double])
    throws -> [Bool]
  {
    var layer = TimelineLayer(
      id: "snapshot", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
    configure(&layer)
    let evaluator = TimelineEvaluator(try Timeline(duration: 1, layers: [layer]))
    return try times.map { time in
      try #require(evaluator.frame(progress: time).layer("snapshot")).hidden
    }
  }

  @Test func showOnlyIsVisibleInsideTheWindow() throws {
    let hidden = try hiddenStates(
      { $0.show(only: 0.3..<0.7) }, at: [0, 0.29, 0.3, 0.5, 0.69, 0.7, 1])
    #expect(hidden == [true, true, false, false, false, true, true])
  }

  @Test func hideDuringIsHiddenInsideTheWindow() throws {
    let hidden = try hiddenStates(
      { $0.hide(during: 0.3..<0.7) }, at: [0, 0.29, 0.3, 0.5, 0.69, 0.7, 1])
    #expect(hidden == [false, false, true, true, true, false, false])
  }

  @Test func windowsSetTheInitialState() {
    var shown = TimelineLayer(id: "a", initial: LayerAttributes(frame: .zero))
    shown.show(only: 0.5..<1)
    #expect(shown.initial.hidden)
    var hidden = TimelineLayer(id: "b", initial: LayerAttributes(frame: .zero))
    hidden.initial.hidden = true
    hidden.hide(during: 0..<0.5)
    #expect(!hidden.initial.hidden)
    #expect(hidden.tracks.first?.mode == .discrete)
  }
}
