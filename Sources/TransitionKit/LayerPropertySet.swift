/// A set of ``LayerProperty`` values as one word of bits, one per case: checked for every
/// track of every timeline, with no hashing and no storage on the heap.
struct LayerPropertySet {
  private var bits: UInt32 = 0

  /// Inserts `property`; false when it was there already.
  mutating func insert(_ property: LayerProperty) -> Bool {
    let mask = Self.mask(property)
    defer { bits |= mask }
    return bits & mask == 0
  }

  func contains(_ property: LayerProperty) -> Bool {
    bits & Self.mask(property) != 0
  }

  /// The property's bit: its case's index, which is what a case of an enum without payloads
  /// is stored as (no search of `allCases`).
  private static func mask(_ property: LayerProperty) -> UInt32 {
    let index = unsafeBitCast(property, to: UInt8.self)
    assert(
      LayerProperty.allCases.count <= UInt32.bitWidth
        && LayerProperty.allCases[Int(index)] == property,
      "a layer property's case index is its bit")
    return 1 << UInt32(index)
  }
}
