/// A unit cubic Bézier timing function from (0, 0) to (1, 1), solved for y given x.
///
/// The control points are those of `CAMediaTimingFunction` and CSS `cubic-bezier()`:
/// P0 = (0, 0), P1 = (x1, y1), P2 = (x2, y2), P3 = (1, 1). With x1 and x2 in [0, 1] the
/// curve's x(s) is non-decreasing in the curve parameter s, so every progress has exactly one
/// eased value. The solver follows WebKit's `UnitBezier`: Newton's method from s = x, stopping
/// on the parameter (not on x). Where x(s) is flat (|dx/ds| below `preciseBelow`, as at a
/// vertical tangent such as x = 0.5 on `cubic-bezier(1, 0, 0, 1)`) a rounding error of x(s)
/// moves s a long way, so there it bisects with x(s) − x evaluated in double-double arithmetic
/// (about 32 significant digits). The eased value is within 1e-9 of the exact one on every
/// valid curve with control points' y in [−10, 10].
///
/// The type stores nothing but the polynomial coefficients and never allocates.
struct CubicBezier {
  // x(s) = ((ax s + bx) s + cx) s, likewise for y.
  private let ax: Double
  private let bx: Double
  private let cx: Double
  private let ay: Double
  private let by: Double
  private let cy: Double
  // The control points, for exact tangents at the ends.
  private let x1: Double
  private let y1: Double
  private let x2: Double
  private let y2: Double

  /// Newton steps smaller than this end the search (curve-parameter units).
  private static let parameterTolerance = 1e-12
  /// Below this |dx/ds| Newton's method hands over to bisection.
  private static let flatDerivative = 1e-6
  /// Where |dx/ds| at Newton's answer is below this, the parameter is found again by the
  /// double-double bisection.
  private static let preciseBelow = 1e-3
  /// Below this a derivative counts as zero when taking the ratio dy/dx.
  private static let zeroDerivative = 1e-9

  /// Creates the solver for the control points (x1, y1) and (x2, y2).
  ///
  /// The points are not checked; `TimingCurve.validated()` does that. Out-of-range input gives
  /// meaningless (possibly NaN) output but never traps.
  @inline(__always)
  init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
  }

  /// The eased value for `x` in the open interval (0, 1).
  ///
  /// Callers handle the endpoints, which are exact by definition.
  @inline(__always)
  func value(at x: Double) -> Double {
    sampleY(parameter(forX: x))
  }

  /// The slope dy/dx at `x` in [0, 1].
  ///
  /// Where dx/ds vanishes together with dy/ds (for example at x = 0 when x1 = y1 = 0) the slope
  /// is the ratio of the first non-vanishing higher derivatives (l'Hôpital). Where only dx/ds
  /// vanishes the tangent is vertical; the slope is then the finite secant over a window of
  /// 1e-6 around `x`, a large but finite number.
  func slope(at x: Double) -> Double {
    let s: Double
    if x <= 0 {
      s = 0
    } else if x >= 1 {
      s = 1
    } else {
      s = parameter(forX: x)
    }
    for order in 1...3 {
      let (dx, dy) = derivatives(order: order, at: s)
      if abs(dx) > Self.zeroDerivative { return dy / dx }
      if abs(dy) > Self.zeroDerivative { break }
    }
    return secantSlope(around: x)
  }

  /// The `order`-th derivatives (1 to 3) of x(s) and y(s) at parameter `s`.
  private func derivatives(order: Int, at s: Double) -> (dx: Double, dy: Double) {
    switch order {
    // The first derivatives at the ends are 3 (P1 − P0) and 3 (P3 − P2); the common factor
    // 3 cancels in the ratio.
    case 1 where s == 0: return (x1, y1)
    case 1 where s == 1: return (1 - x2, 1 - y2)
    case 1: return ((3 * ax * s + 2 * bx) * s + cx, (3 * ay * s + 2 * by) * s + cy)
    case 2: return (6 * ax * s + 2 * bx, 6 * ay * s + 2 * by)
    default: return (6 * ax, 6 * ay)
    }
  }

  /// The slope of the chord over [x − h, x + h] ∩ [0, 1] with h = 1e-6.
  private func secantSlope(around x: Double) -> Double {
    let h = 1e-6
    let low = max(0, x - h)
    let high = min(1, x + h)
    let valueLow = low <= 0 ? 0 : value(at: low)
    let valueHigh = high >= 1 ? 1 : value(at: high)
    return (valueHigh - valueLow) / (high - low)
  }

  /// The curve parameter s in [0, 1] with x(s) = x.
  @inline(__always)
  private func parameter(forX x: Double) -> Double {
    var s = x
    for _ in 0..<8 {
      let derivative = sampleDerivativeX(s)
      guard abs(derivative) >= Self.flatDerivative else { break }
      let step = (sampleX(s) - x) / derivative
      s -= step
      guard s >= 0, s <= 1 else { break }
      if abs(step) < Self.parameterTolerance {
        if abs(sampleDerivativeX(s)) >= Self.preciseBelow { return s }
        break
      }
    }
    return bisectParameter(forX: x)
  }

  /// The fallback: bisection on the non-decreasing x(s), comparing x(s) with x in
  /// double-double arithmetic, until the bracket stops shrinking.
  private func bisectParameter(forX x: Double) -> Double {
    var low = 0.0
    var high = 1.0
    for _ in 0..<80 {
      let middle = 0.5 * (low + high)
      guard middle > low, middle < high else { break }
      if exactXIsBelow(x, at: middle) {
        low = middle
      } else {
        high = middle
      }
    }
    return 0.5 * (low + high)
  }

  /// Whether x(s) < x, with x(s) = 3 x1 s (1 − s)² + 3 x2 s² (1 − s) + s³ in the Bernstein form
  /// evaluated in double-double arithmetic (error about 1e-31), so that the sign is right
  /// even where x(s) is flat.
  private func exactXIsBelow(_ x: Double, at s: Double) -> Bool {
    let s1 = DoubleDouble(s)
    let r = DoubleDouble(1) - s1
    let rr = r * r
    let ss = s1 * s1
    let first = DoubleDouble.twoProduct(3, x1) * s1 * rr
    let second = DoubleDouble.twoProduct(3, x2) * ss * r
    let third = ss * s1
    let difference = first + second + third - DoubleDouble(x)
    return difference.high < 0 || (difference.high == 0 && difference.low < 0)
  }

  @inline(__always)
  private func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }

  @inline(__always)
  private func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }

  @inline(__always)
  private func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
}
