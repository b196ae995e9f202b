import TransitionJSON

/// The arrays of numbers the context's fast-path reader (``ContextReader``) reads;
/// anything else there is ``Unreadable``, left to the reference decoder.
extension JSONReader {
  /// The next element of an array, a number.
  mutating func numberElement() throws -> Double {
    guard try nextElement() else { throw Unreadable() }
    return try number()
  }

  /// An array of exactly two numbers.
  mutating func numberPair() throws -> (Double, Double) {
    try beginArray()
    let pair = (try numberElement(), try numberElement())
    guard try !nextElement() else { throw Unreadable() }
    return pair
  }

  /// `[x, y, width, height]`; the bounds are the caller's to check.
  mutating func rect() throws -> Rect {
    try beginArray()
    let rect = Rect(
      x: try numberElement(), y: try numberElement(), width: try numberElement(),
      height: try numberElement())
    guard try !nextElement() else { throw Unreadable() }
    return rect
  }
}
