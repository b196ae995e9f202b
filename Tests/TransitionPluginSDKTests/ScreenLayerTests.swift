import Testing
import TransitionPluginSDK

/// The convenience layers: a screen's own layer, and a layer filling the container.
@Suite struct ScreenLayerTests {
  @Test func contextLayerKeepsItsIdFrameBackgroundAndContent() {
    let red = Color(red: 1, green: 0, blue: 0)
    let source = ContextLayer(
      id: "cell", frame: Rect(x: 16, y: 200, width: 358, height: 80), background: red,
      content: .object(["image": .string("cover")]))
    let layer = TimelineLayer(source, z: 3)
    #expect(layer.id == "cell")
    #expect(layer.initial.frame == Rect(x: 16, y: 200, width: 358, height: 80))
    #expect(layer.initial.background == red)
    #expect(layer.initial.z == 3)
    #expect(layer.content == .object(["image": .string("cover")]))
    #expect(layer.tracks.isEmpty)
    #expect(layer.initial.alpha == 1)
    #expect(layer.initial.hidden == false)
  }

  @Test func fillingLayerCoversTheContainer() {
    let dim = Color(red: 0, green: 0, blue: 0, alpha: 0.1)
    let layer = TimelineLayer(
      filling: Size(width: 390, height: 844), id: "test.dim", color: dim, z: 5)
    #expect(layer.id == "test.dim")
    #expect(layer.initial.frame == Rect(x: 0, y: 0, width: 390, height: 844))
    #expect(layer.initial.background == dim)
    #expect(layer.initial.z == 5)
    #expect(layer.content == nil)
    #expect(layer.tracks.isEmpty)
  }
}
