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

  /// The property's bit, one of its own for each case (a switch: no search of `allCases`).
  private static func mask(_ property: LayerProperty) -> UInt32 {
    switch property {
    case .frame: 1 << 0
    case .position: 1 << 1
    case .size: 1 << 2
    case .anchor: 1 << 3
    case .alpha: 1 << 4
    case .hidden: 1 << 5
    case .z: 1 << 6
    case .background: 1 << 7
    case .transform: 1 << 8
    case .rotationX: 1 << 9
    case .rotationY: 1 << 10
    case .rotationZ: 1 << 11
    case .scale: 1 << 12
    case .scaleX: 1 << 13
    case .scaleY: 1 << 14
    case .translationX: 1 << 15
    case .translationY: 1 << 16
    case .translationZ: 1 << 17
    case .perspective: 1 << 18
    case .cornerRadius: 1 << 19
    case .clips: 1 << 20
    case .borderWidth: 1 << 21
    case .borderColor: 1 << 22
    case .shadowColor: 1 << 23
    case .shadowBlur: 1 << 24
    case .shadowOffset: 1 << 25
    case .clipTo: 1 << 26
    }
  }
}
