/// The values of the names an expression may read while a timeline is built, by slot
/// (``NameSlots``): a layer's own names (its frame, its place among the rule's layers, its
/// stagger, the rule's variables) over the global ones (the context's, the parameters, the
/// file's `let` variables).
///
/// A layer's name set later hides one set earlier and any global of the same name; forgetting
/// the layer's names brings the globals back. Drawing a layer copies no table of names.
struct ExpressionNames: ExpressionScope {
  private let globals: [Double?]
  private var values: [Double?]
  /// The slots the layer's names were set in.
  private var local: [Int] = []

  /// - Parameter globals: the global names' values by slot (nil: no value for this context).
  init(_ globals: [Double?]) {
    self.globals = globals
    values = globals
  }

  /// The value of the name in `slot`.
  /// - Throws: `ExpressionError` when the name has no value for this context.
  func value(of name: String, slot: Int) throws(ExpressionError) -> Double {
    guard values.indices.contains(slot), let value = values[slot] else {
      throw ExpressionError("\"\(name)\" has no value for this context")
    }
    return value
  }

  /// Gives the name in `slot` the value `value` for this layer; no slot (a name nothing reads)
  /// sets nothing.
  mutating func set(_ slot: Int?, _ value: Double) {
    guard let slot, values.indices.contains(slot) else { return }
    values[slot] = value
    local.append(slot)
  }

  /// Forgets the layer's names (keeping their storage for the next layer).
  mutating func removeLocal() {
    for slot in local { values[slot] = globals[slot] }
    local.removeAll(keepingCapacity: true)
  }
}
