/// The names a data animator's expressions read, numbered: a name's slot is its place in the
/// values a timeline's build keeps (``ExpressionNames``), so that reading a name while a
/// timeline is built is an array access, not a search by string.
struct NameSlots: Sendable {
  /// The names, in slot order.
  private(set) var names: [String] = []
  private var slots: [String: Int] = [:]

  /// How many names have slots.
  var count: Int { names.count }

  /// The slot of `name`, which is given one if it has none.
  mutating func slot(for name: String) -> Int {
    if let slot = slots[name] { return slot }
    names.append(name)
    slots[name] = names.count - 1
    return names.count - 1
  }

  /// The slot of `name`; nil when nothing of the document reads or sets it.
  func slot(of name: String) -> Int? { slots[name] }
}
