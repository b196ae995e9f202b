import Testing
import TransitionKit

/// Expects `backward` (pop, dismiss) to show, with its own overall curve applied, exactly what
/// `forward` (push, present) shows with its curve at each progress p of `times`: backward is
/// looked at where its curve reaches 1 − forward.curve(p) (which is progress 1 − p when the two
/// curves are point reflections of each other, as easeInEaseOut is of itself). The same layers,
/// each with the same frame (within the tolerance, for a frame that moves), drawn rect,
/// transform, anchor, alpha, hidden flag and paint order.
/// The two screens' background layers (`<animator>.from-background` and
/// `<animator>.to-background`) trade ids, since the screens trade places.
func expectMirrored(
  _ forward: Timeline, _ backward: Timeline, animator: String, at times: [Double], note: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  /// The backward progress at which backward's curve shows relative time 1 − forward's.
  func mirrorProgress(_ forwardProgress: Double) -> Double {
    let relative = forward.curve.value(at: forwardProgress)
    if relative == 0 { return 1 }
    if relative == 1 { return 0 }
    return progress(where: backward.curve, reaches: 1 - relative)
  }
  func mirrorID(_ id: String) -> String {
    switch id {
    case "\(animator).from-background": "\(animator).to-background"
    case "\(animator).to-background": "\(animator).from-background"
    default: id
    }
  }
  #expect(
    Set(forward.layers.map { mirrorID($0.id) }) == Set(backward.layers.map(\.id)), "\(note)",
    sourceLocation: sourceLocation)
  for time in times {
    let ahead = forward.frame(at: time)
    let back = backward.frame(at: mirrorProgress(time))
    for state in ahead.layers {
      let mirror = try back.state(mirrorID(state.id))
      let place = "\(state.id) at \(time) in \(note)"
      #expect(close(state.drawnRect, mirror.drawnRect), "\(place)", sourceLocation: sourceLocation)
      #expect(
        close(state.transform, mirror.transform) && close(state.frame, mirror.frame), "\(place)",
        sourceLocation: sourceLocation)
      #expect(
        close(state.alpha, mirror.alpha) && state.hidden == mirror.hidden, "\(place)",
        sourceLocation: sourceLocation)
      #expect(
        state.z == mirror.z && state.anchor == mirror.anchor, "\(place)",
        sourceLocation: sourceLocation)
    }
  }
}
