import TransitionJSON

/// Evaluates a timeline at any progress: the engine's frame evaluation.
///
/// Evaluation is a pure function of the timeline and the progress (same input, same bits), and
/// `evaluate(progress:time:into:)` reuses the frame's storage, so the steady state allocates
/// nothing on the heap. ``update(_:progress:time:)`` brings a frame this evaluator wrote to
/// another progress by writing only what the timeline animates.
public struct TimelineEvaluator: Sendable {
  struct CompiledLayer: Sendable {
    var id: String
    /// When each animated field can change: a range of ``fieldChanges``; empty when resting
    /// would save little (see ``compile(_:held:)``), so that the layer's animated fields are
    /// written at every frame with nothing more read. Next to the start of ``initial``, which
    /// a frame reads anyway.
    var changes: Range<Int>
    var initial: LayerAttributes
    var content: JSONValue?
    /// The layer's number tracks (linear or discrete), as a range of ``numberTracks``.
    var numberTracks: Range<Int>
    /// Its other tracks, as a range of ``otherTracks``.
    var tracks: Range<Int>
    /// The fields its tracks animate (none: every frame shows its resting state).
    var animated: LayerFields
    /// The layer's fields at rest, as the schema evaluates them from its initial attributes
    /// (``LayerField/evaluated(_:)``); its id and content are not read.
    var resting: LayerState
  }

  /// A number track laid out flat: its first key inline (most tracks have one, so evaluating
  /// them reads no other array), the others a range of ``numberKeys``.
  struct NumberTrack: Sendable {
    var property: LayerProperty
    var discrete: Bool
    var initial: Double
    /// The first key; for a track without keys, one that never starts.
    var first: NumberKey
    /// The keys after the first.
    var rest: Range<Int>
  }

  /// A key of a number track (``CompiledTrack/NumberKey``) in 40 bytes: its curve is an index
  /// into ``curves``, or ``linear``, so that walking the keys reads no timing curve (an enum as
  /// large as a spring) and a linear key none at all.
  struct NumberKey: Sendable {
    static let linear: Int32 = -1
    var start: Double
    var end: Double
    var from: Double
    var to: Double
    var curve: Int32
  }

  /// The timeline's duration in seconds.
  public let duration: Double
  /// The timeline's curve, applied to linear progress.
  public let curve: TimingCurve
  /// Only what evaluation needs is kept, not the timeline itself: its keyframes (two
  /// `PropertyValue`s each) would double a session's memory.
  private let layers: [CompiledLayer]
  /// The indices of the layers some track animates, in order.
  private let animatedLayers: [Int]
  /// Every number track of every layer, in layer order, then track order: evaluation walks
  /// them (and their keys) in order through two flat arrays instead of chasing a pointer per
  /// track, which is what evaluating many sessions at once is bound by (cache misses).
  private let numberTracks: [NumberTrack]
  private let numberKeys: [NumberKey]
  /// The tracks that are not number tracks, of every layer in layer order (flat, so that a
  /// frame retains none of them, nor an array per layer).
  private let otherTracks: [CompiledTrack]
  /// The curves of the number keys that are not linear.
  private let curves: [TimingCurve]
  /// When each animated field of each layer can change (``FieldChanges``), in layer order,
  /// with their times and spans: a frame brought to another time writes the fields that did
  /// not rest in between.
  private let fieldChanges: [FieldChanges]
  private let changeTimes: [Double]
  private let changeSpans: [ClosedRange<Double>]
  /// Per layer, in timeline order: the fields its tracks animate. The others keep their initial
  /// values in every frame (an encoder can write them once). A layer the timeline's gesture
  /// holds counts its transform as animated: a ``GestureFollower`` moves it.
  public let animatedFields: [LayerFields]
  /// How the timeline follows a finger, if it does.
  public let gesture: TimelineGesture?
  /// The indices of the layers the gesture holds, in the gesture's order (empty without one).
  public let heldLayers: [Int]

  public init(_ timeline: Timeline) {
    duration = timeline.duration
    curve = timeline.curve
    gesture = timeline.gesture
    let held =
      timeline.gesture?.hold.compactMap { id in timeline.layers.firstIndex { $0.id == id } } ?? []
    heldLayers = held
    let compiled = timeline.layers.withUnsafeBufferPointer { Self.compile($0, held: held) }
    layers = compiled.layers
    animatedFields = compiled.layers.map(\.animated)
    animatedLayers = compiled.layers.indices.filter { !compiled.layers[$0].animated.isEmpty }
    numberTracks = compiled.numberTracks
    numberKeys = compiled.numberKeys
    curves = compiled.curves
    otherTracks = compiled.otherTracks
    fieldChanges = compiled.fieldChanges
    changeTimes = compiled.changeTimes
    changeSpans = compiled.changeSpans
  }

  /// The value of a number track at relative time `time`: what ``CompiledTrack/value(at:)``
  /// gives for it, as a plain number, over the flat arrays.
  @inline(__always)
  private static func value(
    of track: UnsafePointer<NumberTrack>, keys: UnsafePointer<NumberKey>?,
    curves: UnsafePointer<TimingCurve>?, at time: Double
  ) -> Double {
    // The key that started last at or before `time`: among the others, then the first.
    let rest = track.pointee.rest
    if let keys, !rest.isEmpty {
      var index = rest.upperBound - 1
      while index >= rest.lowerBound, keys[index].start > time { index -= 1 }
      if index >= rest.lowerBound {
        return value(of: keys + index, discrete: track.pointee.discrete, curves: curves, at: time)
      }
    }
    guard track.pointee.first.start <= time else { return track.pointee.initial }
    return withUnsafePointer(to: track.pointee.first) {
      value(of: $0, discrete: track.pointee.discrete, curves: curves, at: time)
    }
  }

  /// The value of `key`, the key in charge at relative time `time`.
  @inline(__always)
  private static func value(
    of key: UnsafePointer<NumberKey>, discrete: Bool, curves: UnsafePointer<TimingCurve>?,
    at time: Double
  ) -> Double {
    if discrete { return key.pointee.to }
    let local = CompiledTrack.progress(at: time, start: key.pointee.start, end: key.pointee.end)
    // A linear curve's value is its (clamped) progress.
    let eased =
      key.pointee.curve == NumberKey.linear || curves == nil
      ? local : curves.unsafelyUnwrapped[Int(key.pointee.curve)].value(at: local)
    return lerp(key.pointee.from, key.pointee.to, eased)
  }

  /// Writes the state of every layer at linear `progress` (clamped to [0, 1]) into `frame`.
  /// - Parameters:
  ///   - progress: linear progress; the timeline's curve is applied to it.
  ///   - time: the frame's `t` in seconds (session time); defaults to `progress × duration`.
  public func evaluate(progress: Double, time: Double? = nil, into frame: inout Frame) {
    write(progress: progress, time: time, into: &frame, animatedOnly: false)
  }

  /// Brings `frame` to linear `progress` as ``evaluate(progress:time:into:)`` does, writing
  /// only the ``animatedFields`` of each layer, and of those only the ones that did not rest
  /// between the frame's progress and `progress` (``FieldChanges``): the same frame, for less
  /// work.
  ///
  /// `frame` must hold a frame this evaluator wrote, unchanged since (what a renderer that
  /// keeps its frame has) but for the transforms of the layers the gesture holds, which are
  /// always written again; a frame with another number of layers is written in full.
  public func update(_ frame: inout Frame, progress: Double, time: Double? = nil) {
    assert(isOwnFrame(frame), "update takes a frame this evaluator wrote")
    write(progress: progress, time: time, into: &frame, animatedOnly: true)
  }

  /// Whether `frame` can be one this evaluator wrote: its layers are the timeline's, by id and
  /// in order, or it has another number of layers (and is written in full). For debug
  /// builds' checks.
  func isOwnFrame(_ frame: Frame) -> Bool {
    frame.layers.count != layers.count
      || frame.layers.indices.allSatisfy { frame.layers[$0].id == layers[$0].id }
  }

  private func write(progress: Double, time: Double?, into frame: inout Frame, animatedOnly: Bool) {
    let linear = progress.isNaN ? 0 : min(max(progress, 0), 1)
    let relativeTime = curve.value(at: linear)
    var animatedOnly = animatedOnly
    if frame.layers.count != layers.count {
      frame.layers = layers.map {
        LayerState(id: $0.id, frame: $0.initial.frame, content: $0.content)
      }
      animatedOnly = false
    }
    // The relative time the frame shows: a field that rests from there to `relativeTime`
    // already holds its value (worked out only when some field may rest).
    let shownTime = animatedOnly && !fieldChanges.isEmpty ? curve.value(at: frame.progress) : nil
    frame.t = time ?? linear * duration
    frame.progress = linear
    // Borrowed through buffer pointers so that no layer or track is copied (no reference
    // counting on the hot path); the id and content of a state never change, so only the
    // animated fields are written.
    numberTracks.withUnsafeBufferPointer { tracks in
      numberKeys.withUnsafeBufferPointer { keys in
        curves.withUnsafeBufferPointer { curves in
          otherTracks.withUnsafeBufferPointer { others in
            layers.withUnsafeBufferPointer { compiled in
              frame.layers.withUnsafeMutableBufferPointer { states in
                guard let compiled = compiled.baseAddress, let states = states.baseAddress else {
                  return
                }
                let time = relativeTime
                if animatedOnly {
                  fieldChanges.withUnsafeBufferPointer { fieldChanges in
                    changeTimes.withUnsafeBufferPointer { changeTimes in
                      changeSpans.withUnsafeBufferPointer { changeSpans in
                        for index in animatedLayers {
                          var moving = compiled[index].animated
                          if let shownTime, !compiled[index].changes.isEmpty {
                            moving = []
                            for change in compiled[index].changes
                            where !fieldChanges[change].rests(
                              between: shownTime, and: time, times: changeTimes.baseAddress,
                              spans: changeSpans.baseAddress)
                            {
                              moving.formUnion(fieldChanges[change].field)
                            }
                            guard !moving.isEmpty else { continue }
                          }
                          Self.writeAnimated(
                            moving, of: compiled + index, into: states + index,
                            tracks: tracks.baseAddress, keys: keys.baseAddress,
                            curves: curves.baseAddress, others: others.baseAddress, at: time)
                        }
                      }
                    }
                  }
                  return
                }
                for index in 0..<layers.count {
                  let layer = compiled + index
                  let state = states + index
                  if state.pointee.id != layer.pointee.id {
                    state.pointee = LayerState(
                      id: layer.pointee.id, frame: layer.pointee.initial.frame,
                      content: layer.pointee.content)
                  }
                  Self.writeResting(layer, into: state)
                  if !layer.pointee.animated.isEmpty {
                    Self.writeAnimated(
                      layer.pointee.animated, of: layer, into: state, tracks: tracks.baseAddress,
                      keys: keys.baseAddress, curves: curves.baseAddress,
                      others: others.baseAddress, at: time)
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Writes the resting state of `layer` (its fields at rest, every field of the schema) into
  /// `state`.
  @inline(__always)
  private static func writeResting(
    _ layer: UnsafePointer<CompiledLayer>, into state: UnsafeMutablePointer<LayerState>
  ) {
    withUnsafePointer(to: layer.pointee.resting) { resting in
      LayerFields.copy(.all, from: resting, to: state)
    }
  }

  /// Evaluates the tracks of `layer` that set `fields` (some of those it animates) at
  /// relative time `time` and writes those fields into `state`.
  @inline(__always)
  private static func writeAnimated(
    _ fields: LayerFields, of layer: UnsafePointer<CompiledLayer>,
    into state: UnsafeMutablePointer<LayerState>,
    tracks: UnsafePointer<NumberTrack>?, keys: UnsafePointer<NumberKey>?,
    curves: UnsafePointer<TimingCurve>?, others: UnsafePointer<CompiledTrack>?,
    at time: Double
  ) {
    var attributes = layer.pointee.initial
    // Every track sets one of the fields a layer animates: only a part of them is filtered.
    let all = fields == layer.pointee.animated
    if let tracks {
      for track in layer.pointee.numberTracks
      where all || fields.contains(tracks[track].property.field) {
        attributes.setNumber(
          tracks[track].property,
          to: value(of: tracks + track, keys: keys, curves: curves, at: time))
      }
    }
    if let others {
      for index in layer.pointee.tracks {
        // Borrowed, not retained.
        Unmanaged.passUnretained(others[index])._withUnsafeGuaranteedRef { track in
          guard all || fields.contains(track.property.field) else { return }
          attributes.set(track.property, to: track.value(at: time))
        }
      }
    }
    withUnsafePointer(to: &attributes) { attributes in
      LayerFields.writeEvaluated(fields, from: attributes, into: state)
    }
  }

  /// The state of the layer at `index` (of the timeline's layers) at linear `progress`, as
  /// ``evaluate(progress:time:into:)`` writes it; the state carries no content. For work done
  /// once per gesture (a grab, a release), not per frame.
  public func layerState(at index: Int, progress: Double) -> LayerState {
    let linear = progress.isNaN ? 0 : min(max(progress, 0), 1)
    let relativeTime = curve.value(at: linear)
    var state = LayerState(id: layers[index].id, frame: layers[index].initial.frame)
    numberTracks.withUnsafeBufferPointer { tracks in
      numberKeys.withUnsafeBufferPointer { keys in
        curves.withUnsafeBufferPointer { curves in
          otherTracks.withUnsafeBufferPointer { others in
            layers.withUnsafeBufferPointer { compiled in
              withUnsafeMutablePointer(to: &state) { state in
                guard let layer = compiled.baseAddress.map({ $0 + index }) else { return }
                Self.writeResting(layer, into: state)
                Self.writeAnimated(
                  layer.pointee.animated, of: layer, into: state, tracks: tracks.baseAddress,
                  keys: keys.baseAddress, curves: curves.baseAddress, others: others.baseAddress,
                  at: relativeTime)
              }
            }
          }
        }
      }
    }
    return state
  }

  /// A new frame at linear `progress`.
  public func frame(progress: Double, time: Double? = nil) -> Frame {
    var frame = Frame()
    evaluate(progress: progress, time: time, into: &frame)
    return frame
  }
}
