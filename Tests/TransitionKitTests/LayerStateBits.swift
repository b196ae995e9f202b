import TransitionKit

extension LayerState {
  /// Every number of the state as bits (so that `-0` and `0` differ too), then its flags: what
  /// two evaluations that must agree to the bit are compared by.
  var bits: [UInt64] {
    var numbers = [frame.x, frame.y, frame.width, frame.height, anchor.x, anchor.y]
    numbers += transform.elements + [alpha, z]
    if let color = background {
      numbers += [color.red, color.green, color.blue, color.alpha]
    }
    return numbers.map(\.bitPattern) + [hidden ? 1 : 0, background == nil ? 0 : 1]
  }
}
