import Testing
import TransitionKit

/// The y of the cubic Bézier (0,0), (x1,y1), (x2,y2), (1,1) where its x equals `x`: an
/// independent evaluator that bisects the Bernstein form on the curve parameter until the
/// bracket stops shrinking (x is increasing for x1, x2 in [0, 1]).
func referenceBezier(x1: Double, y1: Double, x2: Double, y2: Double, at x: Double) -> Double {
  func bernstein(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
    let r = 1 - s
    return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
  }
  var low = 0.0
  var high = 1.0
  while true {
    let middle = (low + high) / 2
    if middle <= low || middle >= high { break }
    if bernstein(x1, x2, middle) < x { low = middle } else { high = middle }
  }
  return bernstein(y1, y2, (low + high) / 2)
}

/// `referenceBezier` at `x`, or nil where it cannot be trusted to 1e-9: where |dx/ds| at its
/// parameter is below 1e-3, as a rounding error of x(s) there moves s by more than 1e-13.
func referenceBezier(x1: Double, y1: Double, x2: Double, y2: Double, trustedAt x: Double)
  -> Double?
{
  var low = 0.0
  var high = 1.0
  func xAt(_ s: Double) -> Double {
    let r = 1 - s
    return 3 * r * r * s * x1 + 3 * r * s * s * x2 + s * s * s
  }
  while true {
    let middle = (low + high) / 2
    if middle <= low || middle >= high { break }
    if xAt(middle) < x { low = middle } else { high = middle }
  }
  let s = (low + high) / 2
  let r = 1 - s
  let slope = 3 * r * r * x1 + 6 * r * s * (x2 - x1) + 3 * s * s * (1 - x2)
  guard abs(slope) >= 1e-3 else { return nil }
  return referenceBezier(x1: x1, y1: y1, x2: x2, y2: y2, at: x)
}

/// The `EngineError` that `body` throws, or nil when it returns (another error is recorded as
/// a test issue).
func caughtEngineError<Result>(_ body: () throws -> Result) -> EngineError? {
  do {
    _ = try body()
    return nil
  } catch let error as EngineError {
    return error
  } catch {
    Issue.record("unexpected error \(error)")
    return nil
  }
}
