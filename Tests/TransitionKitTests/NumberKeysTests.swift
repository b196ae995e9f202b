import Testing

@testable import TransitionKit

extension CompiledTrack {
  /// The keys `forEachNumberKey(of:initial:_:)` passes, gathered; nil when it passes none.
  static func numberKeys(of track: PropertyTrack, initial: PropertyValue) -> [NumberKey]? {
    var keys: [NumberKey] = []
    guard forEachNumberKey(of: track, initial: initial, { keys.append($0) }) else { return nil }
    return keys
  }
}

/// A number track is compiled as its keys alone (`CompiledTrack.forEachNumberKey`): the same
/// keys, bit for bit, as the whole compilation of the track has.
@Suite struct NumberKeysTests {
  @Test func numberKeysAreTheCompiledTracksKeys() {
    var generator = SystemRandomNumberGenerator()
    let curves: [TimingCurve] = [
      .linear, .easeIn, .easeInEaseOut, .steps(count: 3, position: .end),
    ]
    for trial in 0..<300 {
      let keyframes = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
        let start = [0, 0.25, 0.5, Double.random(in: 0...1, using: &generator)].randomElement(
          using: &generator)!
        return Keyframe(
          start: start, duration: Double.random(in: 0...(1 - start), using: &generator),
          value: .number(Double.random(in: -500...500, using: &generator)),
          curve: curves.randomElement(using: &generator)!)
      }
      let mode: CalculationMode = trial % 3 == 0 ? .discrete : .linear
      let track = PropertyTrack(.translationX, mode: mode, keyframes: keyframes)
      let initial = PropertyValue.number(Double.random(in: -10...10, using: &generator))
      let whole = CompiledTrack(track, initial: initial)
      let keys = CompiledTrack.numberKeys(of: track, initial: initial)
      #expect(keys?.count == whole.keys.count)
      for (key, reference) in zip(keys ?? [], whole.keys) {
        #expect(key.start == reference.start && key.end == reference.end)
        #expect(.number(key.from) == reference.from && .number(key.to) == reference.to)
        #expect(key.curve == reference.curve)
      }
    }
    let paced = PropertyTrack(
      .alpha, mode: .paced, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
    #expect(CompiledTrack.numberKeys(of: paced, initial: .number(1)) == nil)
    let point = PropertyTrack(
      .anchor, keyframes: [Keyframe(start: 0, duration: 1, value: .point(Point(x: 0, y: 0)))])
    #expect(CompiledTrack.numberKeys(of: point, initial: .point(.center)) == nil)
  }
}
