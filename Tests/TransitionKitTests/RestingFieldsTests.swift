import Testing

@testable import TransitionKit

/// ``TimelineEvaluator/update(_:progress:time:)`` leaves a field that rested since the frame's
/// time as it is (``FieldChanges``): every frame must still be the one a full evaluation gives,
/// to the bit, however the progress moves and whatever the keys look like.
@Suite struct RestingFieldsTests {
  /// A start and duration within [0, 1], on a coarse grid so that keys share starts and ends,
  /// touch, leave gaps and have no duration.
  private func span(_ random: inout SeededGenerator) -> (start: Double, duration: Double) {
    let start = Double(Int.random(in: 0...10, using: &random)) / 10
    let duration = Double(Int.random(in: 0...Int((1 - start) * 10), using: &random)) / 10
    return (start, duration)
  }

  private func curve(_ random: inout SeededGenerator) throws -> TimingCurve {
    switch Int.random(in: 0...3, using: &random) {
    case 0: .linear
    case 1: .easeInEaseOut
    case 2: .steps(count: 3, position: .end)
    default: .spring(try Spring(stiffness: 300, damping: 12))
    }
  }

  /// A timeline of `layers` layers whose tracks, modes, keys and curves are drawn at random.
  private func timeline(_ random: inout SeededGenerator, layers: Int) throws -> Timeline {
    var built: [TimelineLayer] = []
    for index in 0..<layers {
      var tracks: [PropertyTrack] = []
      let properties = [
        LayerProperty.alpha, .z, .translationX, .scale, .rotationY, .position, .hidden,
        .background, .anchor,
      ].shuffled(using: &random)
      for property in properties.prefix(Int.random(in: 0...4, using: &random)) {
        var keyframes: [Keyframe] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let (start, duration) = span(&random)
          let number = Double(Int.random(in: -20...20, using: &random)) / 4
          let value: PropertyValue =
            switch property {
            case .hidden: .bool(number > 0)
            case .position: .point(Point(x: number * 10, y: 5 - number))
            case .anchor: .point(Point(x: number / 5, y: 0.5))
            case .background: .color(Color(red: 0.5, green: 0, blue: abs(number) / 5, alpha: 1))
            default: .number(number)
            }
          keyframes.append(
            Keyframe(start: start, duration: duration, value: value, curve: try curve(&random)))
        }
        let mode =
          property == .hidden
          ? CalculationMode.discrete
          : [CalculationMode.linear, .discrete, .paced, .cubic].randomElement(using: &random)!
        tracks.append(PropertyTrack(property, mode: mode, keyframes: keyframes))
      }
      built.append(
        TimelineLayer(
          id: "layer-\(index)",
          initial: LayerAttributes(frame: Rect(x: 10, y: 20, width: 30, height: 40)),
          tracks: tracks))
    }
    return try Timeline(duration: 1, curve: try curve(&random), layers: built)
  }

  /// Progresses as sessions move: 240 fps forwards, backwards, held, jumps and values outside
  /// [0, 1].
  private func progresses(_ random: inout SeededGenerator) -> [Double] {
    var values = (0...240).map { Double($0) / 240 }
    values += values.reversed()
    values += [0.5, 0.5, 0.5, -0.3, 1.7, 1, 1, 0, 0]
    values += (0..<200).map { _ in Double.random(in: -0.1...1.1, using: &random) }
    values += (0..<40).map { Double($0 / 4) / 10 }
    return values
  }

  @Test func framesBroughtToAnyProgressEqualFullEvaluationsOfRandomTimelines() throws {
    var random = SeededGenerator(state: 0x5EED)
    for round in 0..<60 {
      let evaluator = TimelineEvaluator(try timeline(&random, layers: 6))
      var updated = Frame()
      for progress in progresses(&random) {
        evaluator.update(&updated, progress: progress)
        let expected = evaluator.frame(progress: progress)
        #expect(
          updated.layers.map(\.bits) == expected.layers.map(\.bits),
          "timeline \(round), progress \(progress)")
        if updated.layers.map(\.bits) != expected.layers.map(\.bits) { return }
      }
    }
  }

  @Test func aFieldRestsOnlyOutsideItsSpansAndBetweenChangeTimes() {
    // Moves over [0.2, 0.4], jumps at 0.7; the flat arrays hold another field's first.
    let times = [0.5, 0.2, 0.7]
    let spans = [0.9...1, 0.2...0.4]
    let changes = FieldChanges(.alpha, times: 1..<3, spans: 1..<2)
    times.withUnsafeBufferPointer { times in
      spans.withUnsafeBufferPointer { spans in
        let rests = { (a: Double, b: Double) in
          changes.rests(between: a, and: b, times: times.baseAddress, spans: spans.baseAddress)
        }
        #expect(rests(0, 0.1))
        #expect(rests(0.1, 0))
        #expect(!rests(0.1, 0.2))
        #expect(!rests(0.3, 0.3))
        #expect(!rests(0.4, 0.5))
        #expect(rests(0.45, 0.6))
        #expect(rests(0.6, 0.45))
        #expect(!rests(0.6, 0.7))
        #expect(!rests(0.7, 0.6))
        #expect(rests(0.7, 1.2))
        #expect(rests(-0.5, 0.1))
        #expect(!rests(0.1, 0.8))
      }
    }
  }

  @Test func spansThatMeetCoverARangeAndAGapDoesNot() {
    #expect(FieldChanges.spans([0.5...1, 0...0.5], cover: 0...1))
    #expect(FieldChanges.spans([-1...0.2, 0.1...0.7, 0.6...3], cover: 0...1))
    #expect(!FieldChanges.spans([0...0.4, 0.5...1], cover: 0...1))
    #expect(!FieldChanges.spans([0.1...1], cover: 0...1))
    #expect(!FieldChanges.spans([0...0.9], cover: 0...1))
    #expect(!FieldChanges.spans([], cover: 0...1))
  }

  @Test func aHeldLayersTransformNeverRests() throws {
    let timeline = try Timeline(
      duration: 1,
      layers: [
        TimelineLayer(
          id: "card", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 100, height: 100)),
          tracks: [
            PropertyTrack(
              .alpha, keyframes: [Keyframe(start: 0.5, duration: 0.1, value: .number(0))])
          ])
      ],
      gesture: TimelineGesture(hold: ["card"], axis: .y, range: 600))
    let evaluator = TimelineEvaluator(timeline)
    var frame = evaluator.frame(progress: 0.1)
    // A finger moved the held layer; the next frame starts from the timeline's own transform.
    frame.layers[0].transform.concatenateTranslation(x: 0, y: 40, z: 0)
    evaluator.update(&frame, progress: 0.1)
    #expect(frame.layers[0].transform == evaluator.frame(progress: 0.1).layers[0].transform)
  }
}
