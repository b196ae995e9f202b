import Testing

@testable import TransitionKit

/// A layer id held inline (``LayerName``), and the attributes it keeps free of references.
@Suite struct LayerNameTests {
  @Test func anIdRoundTripsAndComparesByItsBytes() {
    for id in ["", "w", "zoom-present.window", "é→ü", String(repeating: "x", count: 64)] {
      let name = LayerName(id)
      #expect(name.string == id)
      #expect(!name.isTruncated)
      #expect(name == LayerName(id))
      #expect(name.hashValue == LayerName(id).hashValue)
    }
    #expect(LayerName("a") != LayerName("b"))
    #expect(LayerName("ab") != LayerName("a"))
  }

  @Test func aLongerIdKeepsItsFirstBytesAndSaysSo() {
    let long = String(repeating: "y", count: 65)
    let name = LayerName(long)
    #expect(name.isTruncated)
    #expect(name.string == String(repeating: "y", count: 64))
    #expect(name != LayerName(String(repeating: "y", count: 64)))
  }

  @Test func layerAttributesHoldNoReference() {
    // The evaluator copies a layer's attributes each frame: a copy of bytes only while they
    // hold no reference.
    #expect(_isPOD(LayerAttributes.self))
    var attributes = LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    attributes.clipTo = "container"
    #expect(attributes.clipTo == "container")
    #expect(attributes.clipTarget == LayerName("container"))
    attributes.clipTo = nil
    #expect(attributes.clipTarget == nil)
  }

  @Test func aTimelineRefusesAClipIdLongerThanSixtyFourBytes() {
    let long = String(repeating: "z", count: 65)
    var clipped = TimelineLayer(
      id: "a", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
    clipped.initial.clipTo = long
    let target = TimelineLayer(
      id: long, initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
    #expect(throws: EngineError.self) { try Timeline(duration: 1, layers: [target, clipped]) }
    // The same clip within the limit is a timeline.
    var near = clipped
    near.initial.clipTo = String(long.dropLast())
    let nearTarget = TimelineLayer(id: String(long.dropLast()), initial: target.initial)
    #expect((try? Timeline(duration: 1, layers: [nearTarget, near])) != nil)
  }
}
