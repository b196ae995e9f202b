/// A number as the unevaluated sum `high + low` of two doubles (about 32 significant digits),
/// for the few places where double precision is not enough.
struct DoubleDouble {
  var high: Double
  var low: Double

  init(_ value: Double) {
    high = value
    low = 0
  }

  init(high: Double, low: Double) {
    self.high = high
    self.low = low
  }

  /// `a + b` exactly (Knuth's two-sum).
  static func twoSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let sum = a + b
    let bVirtual = sum - a
    let aVirtual = sum - bVirtual
    return DoubleDouble(high: sum, low: (a - aVirtual) + (b - bVirtual))
  }

  /// `a × b` exactly (two-product with a fused multiply-add).
  static func twoProduct(_ a: Double, _ b: Double) -> DoubleDouble {
    let product = a * b
    return DoubleDouble(high: product, low: (-product).addingProduct(a, b))
  }

  static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let sum = twoSum(a.high, b.high)
    let low = sum.low + a.low + b.low
    return twoSum(sum.high, low)
  }

  static prefix func - (a: DoubleDouble) -> DoubleDouble {
    DoubleDouble(high: -a.high, low: -a.low)
  }

  static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

  static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let product = twoProduct(a.high, b.high)
    let low = product.low + (a.high * b.low + a.low * b.high)
    return twoSum(product.high, low)
  }
}
