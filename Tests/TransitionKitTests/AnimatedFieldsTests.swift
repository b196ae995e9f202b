import Testing
import TransitionKit

/// Which fields a timeline animates, and ``TimelineEvaluator/update(_:progress:time:)``, which
/// writes only those: the same frame as a full evaluation, to the bit.
@Suite struct AnimatedFieldsTests {
  private func timeline() throws -> Timeline {
    var cover = LayerAttributes(frame: Rect(x: 20, y: 120, width: 170, height: 170))
    cover.anchor = Point(x: 0, y: 0.5)
    cover.perspective = -1.0 / 500
    cover.z = 4
    var tinted = LayerAttributes(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    tinted.background = .white
    tinted.alpha = 0.5
    tinted.transform = .scale(x: 2, y: 3)
    let key = { (start: Double, value: PropertyValue) in
      Keyframe(start: start, duration: 1 - start, value: value, curve: .easeInEaseOut)
    }
    return try Timeline(
      duration: 1, curve: .easeOut,
      layers: [
        TimelineLayer(id: "still", initial: tinted, content: .string("still.png")),
        TimelineLayer(
          id: "cover", initial: cover,
          tracks: [
            PropertyTrack(.rotationY, keyframes: [key(0, .number(-.pi))]),
            PropertyTrack(.alpha, keyframes: [key(0.5, .number(0))]),
          ]),
        TimelineLayer(
          id: "mover", initial: LayerAttributes(frame: Rect(x: 5, y: 5, width: 50, height: 50)),
          tracks: [
            PropertyTrack(.position, keyframes: [key(0.2, .point(Point(x: 300, y: 40)))]),
            PropertyTrack(.hidden, mode: .discrete, keyframes: [key(0.7, .bool(true))]),
            PropertyTrack(.z, mode: .discrete, keyframes: [key(0.3, .number(9))]),
            PropertyTrack(.background, keyframes: [key(0, .color(.black))]),
            PropertyTrack(.anchor, mode: .cubic, keyframes: [key(0.1, .point(Point(x: 1, y: 1)))]),
            PropertyTrack(.scale, keyframes: [key(0.4, .number(0.25))]),
          ]),
      ])
  }

  @Test func aTracksPropertyNamesTheFieldItChanges() {
    #expect(LayerProperty.position.field == .frame)
    #expect(LayerProperty.size.field == .frame)
    #expect(LayerProperty.frame.field == .frame)
    #expect(LayerProperty.anchor.field == .anchor)
    for property in [LayerProperty.rotationY, .scale, .scaleX, .translationZ, .perspective] {
      #expect(property.field == .transform)
    }
    #expect(LayerProperty.alpha.field == .alpha)
    #expect(LayerProperty.hidden.field == .hidden)
    #expect(LayerProperty.z.field == .z)
    #expect(LayerProperty.background.field == .background)
    #expect(LayerProperty.cornerRadius.field == .cornerRadius)
    #expect(LayerProperty.clips.field == .clips)
    #expect(LayerProperty.borderWidth.field == .border)
    #expect(LayerProperty.borderColor.field == .border)
    for property in [LayerProperty.shadowColor, .shadowBlur, .shadowOffset] {
      #expect(property.field == .shadow)
    }
    #expect(LayerProperty.clipTo.field == .clipTo)
    #expect(Set(LayerProperty.allCases.map(\.field)).count == 12)
  }

  @Test func theEvaluatorListsTheFieldsEachLayerAnimates() throws {
    let evaluator = TimelineEvaluator(try timeline())
    #expect(
      evaluator.animatedFields == [
        [], [.transform, .alpha], [.frame, .hidden, .z, .background, .anchor, .transform],
      ])
  }

  @Test func fieldsNoTrackAnimatesKeepTheirInitialValuesInEveryFrame() throws {
    let evaluator = TimelineEvaluator(try timeline())
    let first = evaluator.frame(progress: 0)
    for progress in stride(from: 0.0, through: 1, by: 0.05) {
      let frame = evaluator.frame(progress: progress)
      #expect(frame.layers[0].bits == first.layers[0].bits)
      #expect(frame.layers[1].frame == first.layers[1].frame)
      #expect(frame.layers[1].z == first.layers[1].z)
      #expect(frame.layers[2].alpha == first.layers[2].alpha)
    }
  }

  @Test func updatingAFrameGivesTheFrameEvaluationGivesToTheBit() throws {
    let evaluator = TimelineEvaluator(try timeline())
    var updated = Frame()
    // Forwards, backwards and outside [0, 1], as control ops move a session.
    let progresses = [0.0, 0.3, 0.1, 0.75, 1, 0.5, -0.2, 1.4, 0.05, 0.999]
    for (index, progress) in progresses.enumerated() {
      evaluator.update(&updated, progress: progress, time: Double(index))
      let expected = evaluator.frame(progress: progress, time: Double(index))
      #expect(updated.t == expected.t)
      #expect(updated.progress == expected.progress)
      #expect(updated.layers.map(\.id) == expected.layers.map(\.id))
      #expect(updated.layers.map(\.content) == expected.layers.map(\.content))
      #expect(updated.layers.map(\.bits) == expected.layers.map(\.bits), "progress \(progress)")
    }
  }

  @Test func updatingAFrameOfAnotherShapeWritesItInFull() throws {
    let evaluator = TimelineEvaluator(try timeline())
    var frame = Frame(layers: [LayerState(id: "other", frame: .zero, alpha: 0.1)])
    evaluator.update(&frame, progress: 0.6)
    #expect(frame == evaluator.frame(progress: 0.6))
  }
}
