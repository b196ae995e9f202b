import Testing
import TransitionKit

/// Expects `backward` (pop, dismiss) at 1 − t to show exactly what `forward` (push, present)
/// shows at t, for each of `times`: the same layers, each with the same frame, drawn rect,
/// transform, anchor, alpha, hidden flag and paint order. The two screens' background layers
/// (`<animator>.from-background` and `<animator>.to-background`) trade ids, since the screens
/// trade places.
func expectMirrored(
  _ forward: Timeline, _ backward: Timeline, animator: String, at times: [Double], note: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
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
    let back = backward.frame(at: 1 - time)
    for state in ahead.layers {
      let mirror = try back.state(mirrorID(state.id))
      let place = "\(state.id) at \(time) in \(note)"
      #expect(close(state.drawnRect, mirror.drawnRect), "\(place)", sourceLocation: sourceLocation)
      #expect(
        close(state.transform, mirror.transform) && state.frame == mirror.frame, "\(place)",
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
