/// Why the fast-path reader (``ContextReader``) leaves a text to its
/// reference decoder: anything it does not read exactly as the reference would.
struct Unreadable: Error {}

/// The members of one object a fast-path reader has seen so far, by bit (at most 64), so that
/// a repeated one is noticed and left to the reference decoder, which keeps the last.
struct SeenMembers {
  private var bits: UInt64 = 0

  /// Marks member `bit` seen.
  /// - Throws: `Unreadable` when it was seen before.
  mutating func insert(_ bit: Int) throws {
    let mask: UInt64 = 1 << UInt64(bit)
    guard bits & mask == 0 else { throw Unreadable() }
    bits |= mask
  }
}
