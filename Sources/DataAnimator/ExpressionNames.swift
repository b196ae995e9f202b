/// The names an expression may read while a timeline is built: a layer's own names (its
/// frame, its place among the rule's layers, its stagger, the rule's variables), then the
/// global ones (the context's, the parameters, the file's `let` variables).
///
/// A layer's names are a short list searched from the last set, so that a later one hides an
/// earlier one and every global of the same name; drawing a layer copies no table of globals.
struct ExpressionNames {
  let globals: [String: Double]
  private var local: [(name: String, value: Double)] = []

  init(_ globals: [String: Double]) {
    self.globals = globals
  }

  subscript(name: String) -> Double? {
    for entry in local.reversed() where entry.name == name { return entry.value }
    return globals[name]
  }

  /// Gives `name` the value `value` for this layer.
  mutating func set(_ name: String, _ value: Double) {
    local.append((name, value))
  }

  /// Forgets the layer's names (keeping their storage for the next layer).
  mutating func removeLocal() {
    local.removeAll(keepingCapacity: true)
  }
}
