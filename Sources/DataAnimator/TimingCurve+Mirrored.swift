import TransitionKit

extension TimingCurve {
  /// The curve played backwards in time: a cubic Bézier turned about (0.5, 0.5), steps with
  /// their jump at the other end; linear and springs as they are (a spring has no exact mirror).
  var mirrored: TimingCurve {
    switch self {
    case .linear, .spring: self
    case .cubicBezier(let x1, let y1, let x2, let y2):
      .cubicBezier(x1: 1 - x2, y1: 1 - y2, x2: 1 - x1, y2: 1 - y1)
    case .steps(let count, let position):
      .steps(count: count, position: position == .start ? .end : .start)
    }
  }
}
