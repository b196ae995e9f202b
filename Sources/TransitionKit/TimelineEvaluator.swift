import TransitionJSON

/// Evaluates a timeline at any progress: the engine's frame evaluation.
///
/// Evaluation is a pure function of the timeline and the progress (same input, same bits), and
/// `evaluate(progress:time:into:)` reuses the frame's storage, so the steady state allocates
/// nothing on the heap.
public struct TimelineEvaluator: Sendable {
  private struct CompiledLayer: Sendable {
    var id: String
    var initial: LayerAttributes
    var content: JSONValue?
    /// The layer's number tracks (linear or discrete), as a range of ``numberTracks``.
    var numberTracks: Range<Int>
    /// Its other tracks.
    var tracks: [CompiledTrack]
  }

  /// A number track laid out flat: its keys are a range of ``numberKeys``.
  private struct NumberTrack: Sendable {
    var property: LayerProperty
    var keys: Range<Int>
    var discrete: Bool
    var initial: Double
  }

  /// The timeline's duration in seconds.
  public let duration: Double
  /// The timeline's curve, applied to linear progress.
  public let curve: TimingCurve
  /// Only what evaluation needs is kept, not the timeline itself: its keyframes (two
  /// `PropertyValue`s each) would double a session's memory.
  private let layers: [CompiledLayer]
  /// Every number track of every layer, in layer order, then track order: evaluation walks
  /// them (and their keys) in order through two flat arrays instead of chasing a pointer per
  /// track, which is what evaluating many sessions at once is bound by (cache misses).
  private let numberTracks: [NumberTrack]
  private let numberKeys: [CompiledTrack.NumberKey]

  public init(_ timeline: Timeline) {
    duration = timeline.duration
    curve = timeline.curve
    var numberTracks: [NumberTrack] = []
    var numberKeys: [CompiledTrack.NumberKey] = []
    layers = timeline.layers.map { layer in
      let compiled = layer.tracks.map {
        CompiledTrack($0, initial: layer.initial.value(of: $0.property))
      }
      let first = numberTracks.count
      var others: [CompiledTrack] = []
      // Number tracks set only scalar fields that no other track sets, so evaluating them
      // before the others (each group in its own order) gives the same state.
      for track in compiled {
        guard let keys = track.numberKeys else {
          others.append(track)
          continue
        }
        numberTracks.append(
          NumberTrack(
            property: track.property, keys: numberKeys.count..<numberKeys.count + keys.count,
            discrete: track.mode == .discrete, initial: track.initialNumber))
        numberKeys += keys
      }
      return CompiledLayer(
        id: layer.id, initial: layer.initial, content: layer.content,
        numberTracks: first..<numberTracks.count, tracks: others)
    }
    // Copied to exact capacities (appending left them up to twice as large): a session
    // keeps these arrays for its lifetime.
    self.numberTracks = numberTracks.withUnsafeBufferPointer { Array($0) }
    self.numberKeys = numberKeys.withUnsafeBufferPointer { Array($0) }
  }

  /// The value of a number track at relative time `time`: ``CompiledTrack/numberValue(at:)``
  /// over the flat arrays.
  @inline(__always)
  private static func value(
    of track: UnsafePointer<NumberTrack>, keys: UnsafePointer<CompiledTrack.NumberKey>,
    at time: Double
  ) -> Double {
    var index = track.pointee.keys.upperBound - 1
    let first = track.pointee.keys.lowerBound
    while index >= first, keys[index].start > time { index -= 1 }
    guard index >= first else { return track.pointee.initial }
    let key = keys + index
    if track.pointee.discrete { return key.pointee.to }
    let duration = key.pointee.end - key.pointee.start
    let local = duration > 0 ? min(max((time - key.pointee.start) / duration, 0), 1) : 1
    return lerp(key.pointee.from, key.pointee.to, key.pointee.curve.value(at: local))
  }

  /// Writes the state of every layer at linear `progress` (clamped to [0, 1]) into `frame`.
  /// - Parameters:
  ///   - progress: linear progress; the timeline's curve is applied to it.
  ///   - time: the frame's `t` in seconds (session time); defaults to `progress × duration`.
  public func evaluate(progress: Double, time: Double? = nil, into frame: inout Frame) {
    let linear = progress.isNaN ? 0 : min(max(progress, 0), 1)
    let relativeTime = curve.value(at: linear)
    frame.t = time ?? linear * duration
    frame.progress = linear
    if frame.layers.count != layers.count {
      frame.layers = layers.map {
        LayerState(id: $0.id, frame: $0.initial.frame, content: $0.content)
      }
    }
    // Borrowed through buffer pointers so that no layer or track is copied (no reference
    // counting on the hot path); the id and content of a state never change, so only the
    // animated fields are written.
    numberTracks.withUnsafeBufferPointer { flatTracksBuffer in
      numberKeys.withUnsafeBufferPointer { flatKeysBuffer in
        let flatTracks = flatTracksBuffer.baseAddress
        let flatKeys = flatKeysBuffer.baseAddress
        layers.withUnsafeBufferPointer { compiled in
          frame.layers.withUnsafeMutableBufferPointer { states in
            for index in compiled.indices {
              var attributes = compiled[index].initial
              if let tracks = flatTracks, let keys = flatKeys {
                for track in compiled[index].numberTracks {
                  attributes.setNumber(
                    tracks[track].property,
                    to: Self.value(of: tracks + track, keys: keys, at: relativeTime))
                }
              }
              for track in compiled[index].tracks {
                attributes.set(track.property, to: track.value(at: relativeTime))
              }
              if states[index].id != compiled[index].id {
                states[index] = LayerState(
                  id: compiled[index].id, frame: attributes.frame, content: compiled[index].content)
              }
              states[index].frame = attributes.frame
              states[index].anchor = attributes.anchor
              states[index].transform = attributes.composedTransform
              states[index].alpha = min(max(attributes.alpha, 0), 1)
              states[index].hidden = attributes.hidden
              states[index].z = attributes.z
              states[index].background = attributes.background
            }
          }
        }
      }
    }
  }

  /// A new frame at linear `progress`.
  public func frame(progress: Double, time: Double? = nil) -> Frame {
    var frame = Frame()
    evaluate(progress: progress, time: time, into: &frame)
    return frame
  }
}
