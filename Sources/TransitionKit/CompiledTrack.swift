/// A property track prepared for fast evaluation (a class, so that evaluating a frame borrows it
/// rather than copying it): keyframes sorted by start with the value each
/// one starts from, and the knots of the paced and cubic modes.
final class CompiledTrack: Sendable {
  struct Key: Sendable {
    var start: Double
    var end: Double
    var from: PropertyValue
    var to: PropertyValue
    var curve: TimingCurve

    /// The key's value at relative time `time` (at or after its start).
    func value(at time: Double) -> PropertyValue {
      .interpolate(
        from: from, to: to,
        by: curve.value(at: CompiledTrack.progress(at: time, start: start, end: end)))
    }
  }

  let property: LayerProperty
  let mode: CalculationMode
  let initial: PropertyValue
  let keys: [Key]
  /// Paced and cubic modes: knot times and values (vector form) and, for cubic, tangents.
  let knotTimes: [Double]
  let knotValues: [SIMD4<Double>]
  let knotTangents: [SIMD4<Double>]
  /// Paced mode: distance travelled at each knot.
  let knotDistances: [Double]

  /// A key of a number track: the fields of ``Key`` with numbers for values.
  struct NumberKey: Sendable {
    var start: Double
    var end: Double
    var from: Double
    var to: Double
    var curve: TimingCurve

    /// The key's value at relative time `time`, as ``Key/value(at:)`` computes it.
    func value(at time: Double) -> Double {
      lerp(from, to, curve.value(at: CompiledTrack.progress(at: time, start: start, end: end)))
    }
  }

  /// A key's own progress at relative time `time`: 0 at its start, 1 at its end and after
  /// (and at once for a key of no duration), which its curve then eases.
  @inline(__always)
  static func progress(at time: Double, start: Double, end: Double) -> Double {
    let duration = end - start
    return duration > 0 ? min(max((time - start) / duration, 0), 1) : 1
  }

  /// The indices of `keyframes` ordered by start, ties in their own order: the order the
  /// keys are compiled in. Nil when that is the keyframes' own order (as it nearly always
  /// is), so that nothing is sorted or allocated for them.
  static func startOrder(of keyframes: [Keyframe]) -> [Int]? {
    keyframes.withUnsafeBufferPointer { keyframes in
      var index = 1
      while index < keyframes.count,
        keyframes[index - 1].relativeStart <= keyframes[index].relativeStart
      {
        index += 1
      }
      guard index < keyframes.count else { return nil }
      return keyframes.indices.sorted {
        (keyframes[$0].relativeStart, $0) < (keyframes[$1].relativeStart, $1)
      }
    }
  }

  init(_ track: PropertyTrack, initial: PropertyValue) {
    property = track.property
    self.initial = initial
    let order = Self.startOrder(of: track.keyframes)
    var keys: [Key] = []
    keys.reserveCapacity(track.keyframes.count)
    track.keyframes.withUnsafeBufferPointer { keyframes in
      for position in keyframes.indices {
        let keyframe = keyframes.baseAddress.unsafelyUnwrapped + (order?[position] ?? position)
        let start = keyframe.pointee.relativeStart
        let from = keys.last?.value(at: start) ?? initial
        // Validation lets an end pass 1 by a rounding error; it ends at 1 so that progress 1
        // reaches the target exactly.
        keys.append(
          Key(
            start: start, end: min(keyframe.pointee.relativeEnd, 1), from: from,
            to: keyframe.pointee.value, curve: keyframe.pointee.curve))
      }
    }
    self.keys = keys
    // Paced and cubic blend vectors; booleans, matrices and layers have none, so they fall back to linear.
    let vectorMode =
      (track.mode == .paced || track.mode == .cubic) && initial.kind != .bool
      && initial.kind != .transform && initial.kind != .layer
    mode = vectorMode ? track.mode : (track.mode == .discrete ? .discrete : .linear)
    var times: [Double] = []
    var values: [SIMD4<Double>] = []
    if vectorMode {
      times.append(keys[0].start)
      values.append(initial.vector)
      for key in keys.sorted(by: { $0.end < $1.end }) {
        if let last = times.last, key.end <= last {
          values[values.count - 1] = key.to.vector  // a knot at the same time: the later wins
        } else {
          times.append(key.end)
          values.append(key.to.vector)
        }
      }
    }
    knotTimes = times
    knotValues = values
    var distances: [Double] = values.isEmpty ? [] : [0]
    for index in values.indices.dropFirst() {
      let step = values[index] - values[index - 1]
      distances.append(distances[index - 1] + (step * step).sum().squareRoot())
    }
    knotDistances = distances
    var tangents: [SIMD4<Double>] = []
    for index in values.indices {
      let before = max(index - 1, 0)
      let after = min(index + 1, values.count - 1)
      let span = times[after] - times[before]
      tangents.append(span > 0 ? (values[after] - values[before]) / span : .zero)
    }
    knotTangents = tangents
  }

  /// Passes `body` the keys of `track` as plain numbers when it is a number track in linear
  /// or discrete mode, in their order, computed as ``keys`` are (sorted by start, each from
  /// the value the one before it has there) without building them: the evaluator keeps
  /// nothing else of such a track, so it compiles no ``CompiledTrack`` for it. False, and no
  /// call, for any other track.
  static func forEachNumberKey(
    of track: PropertyTrack, initial: PropertyValue, _ body: (NumberKey) -> Void
  ) -> Bool {
    guard case .number(let initialNumber) = initial,
      track.mode == .linear || track.mode == .discrete
    else { return false }
    return track.keyframes.withUnsafeBufferPointer { keyframes in
      for index in keyframes.indices {
        guard case .number = keyframes[index].value else { return false }
      }
      let order = startOrder(of: track.keyframes)
      var last: NumberKey?
      for position in keyframes.indices {
        let keyframe = keyframes.baseAddress.unsafelyUnwrapped + (order?[position] ?? position)
        guard case .number(let to) = keyframe.pointee.value else { return false }
        let start = keyframe.pointee.relativeStart
        let from = last?.value(at: start) ?? initialNumber
        // As for ``keys``: an end past 1 by a rounding error ends at 1.
        let key = NumberKey(
          start: start, end: min(keyframe.pointee.relativeEnd, 1), from: from, to: to,
          curve: keyframe.pointee.curve)
        body(key)
        last = key
      }
      return true
    }
  }

  /// Adds when this track's value can change (``FieldChanges``): at each key's start, and
  /// within a key that moves; a paced or cubic track, blended across its knots, within all of
  /// them.
  func recordChanges(times: inout [Double], spans: inout [ClosedRange<Double>]) {
    // The keys are read in place (each holds two values as large as a transform).
    keys.withUnsafeBufferPointer { keys in
      for index in keys.indices {
        let (start, end) = (keys[index].start, keys[index].end)
        times.append(start)
        if mode == .linear, start < end { spans.append(start...end) }
      }
    }
    if let first = knotTimes.first, let last = knotTimes.last {
      spans.append(first...max(first, last))
    }
  }

  /// The property's value at relative time `time` (already eased by the timeline's curve).
  func value(at time: Double) -> PropertyValue {
    switch mode {
    case .linear:
      guard let index = activeKey(at: time) else { return initial }
      return keys.withUnsafeBufferPointer { $0[index].value(at: time) }
    case .discrete:
      guard let index = activeKey(at: time) else { return initial }
      return keys.withUnsafeBufferPointer { $0[index].to }
    case .paced: return pacedValue(at: time)
    case .cubic: return cubicValue(at: time)
    }
  }

  /// The key that started last at or before `time`.
  private func activeKey(at time: Double) -> Int? {
    keys.withUnsafeBufferPointer { keys in
      var index = keys.count - 1
      while index >= 0 {
        if keys[index].start <= time { return index }
        index -= 1
      }
      return nil
    }
  }

  /// The index of the knot segment containing `time`, or nil before the first or after the last.
  private func segment(at time: Double) -> Int? {
    var index = 0
    while index + 1 < knotTimes.count {
      if time < knotTimes[index + 1] { return index }
      index += 1
    }
    return nil
  }

  private func pacedValue(at time: Double) -> PropertyValue {
    if time <= knotTimes[0] { return initial }
    guard let last = knotTimes.last, time < last, let total = knotDistances.last, total > 0 else {
      return initial.withVector(knotValues[knotValues.count - 1])
    }
    let travelled = (time - knotTimes[0]) / (last - knotTimes[0]) * total
    var index = 0
    while index + 2 < knotDistances.count, knotDistances[index + 1] <= travelled { index += 1 }
    let length = knotDistances[index + 1] - knotDistances[index]
    let fraction = length > 0 ? (travelled - knotDistances[index]) / length : 1
    let a = knotValues[index]
    let b = knotValues[index + 1]
    return initial.withVector(a + (b - a) * fraction)
  }

  private func cubicValue(at time: Double) -> PropertyValue {
    if time <= knotTimes[0] { return initial }
    guard let index = segment(at: time) else {
      return initial.withVector(knotValues[knotValues.count - 1])
    }
    let h = knotTimes[index + 1] - knotTimes[index]
    let s = (time - knotTimes[index]) / h
    let s2 = s * s
    let s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1
    let h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2
    let h11 = s3 - s2
    let value =
      knotValues[index] * h00 + knotTangents[index] * (h10 * h) + knotValues[index + 1] * h01
      + knotTangents[index + 1] * (h11 * h)
    return initial.withVector(value)
  }
}
