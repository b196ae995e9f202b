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
    var tracks: [CompiledTrack]
  }

  public let timeline: Timeline
  private let layers: [CompiledLayer]

  public init(_ timeline: Timeline) {
    self.timeline = timeline
    layers = timeline.layers.map { layer in
      CompiledLayer(
        id: layer.id, initial: layer.initial, content: layer.content,
        tracks: layer.tracks.map {
          CompiledTrack($0, initial: layer.initial.value(of: $0.property))
        })
    }
  }

  /// Writes the state of every layer at linear `progress` (clamped to [0, 1]) into `frame`.
  /// - Parameters:
  ///   - progress: linear progress; the timeline's curve is applied to it.
  ///   - time: the frame's `t` in seconds (session time); defaults to `progress × duration`.
  public func evaluate(progress: Double, time: Double? = nil, into frame: inout Frame) {
    let linear = progress.isNaN ? 0 : min(max(progress, 0), 1)
    let relativeTime = timeline.curve.value(at: linear)
    frame.t = time ?? linear * timeline.duration
    frame.progress = linear
    if frame.layers.count != layers.count {
      frame.layers = layers.map {
        LayerState(id: $0.id, frame: $0.initial.frame, content: $0.content)
      }
    }
    // Borrowed through buffer pointers so that no layer or track is copied (no reference
    // counting on the hot path); the id and content of a state never change, so only the
    // animated fields are written.
    layers.withUnsafeBufferPointer { compiled in
      frame.layers.withUnsafeMutableBufferPointer { states in
        for index in compiled.indices {
          var attributes = compiled[index].initial
          compiled[index].tracks.withUnsafeBufferPointer { tracks in
            for track in tracks.indices {
              attributes.set(tracks[track].property, to: tracks[track].value(at: relativeTime))
            }
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

  /// A new frame at linear `progress`.
  public func frame(progress: Double, time: Double? = nil) -> Frame {
    var frame = Frame()
    evaluate(progress: progress, time: time, into: &frame)
    return frame
  }
}
