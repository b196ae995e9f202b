/// A layer's id held inline, as at most ``capacity`` bytes of UTF-8: a value with no
/// reference in it, so that the attributes that name a layer (``LayerAttributes/clipTo``)
/// copy as plain bytes, with no retain and release, each time the frame path evaluates a layer.
///
/// An id longer than ``capacity`` bytes keeps its first ``capacity`` and is marked
/// ``isTruncated``: a timeline naming one is refused (``Timeline/maximumClipIDLength``).
public struct LayerName: Hashable, Sendable {
  /// The most bytes an id keeps.
  public static let capacity = 64

  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  private var count: UInt8 = 0
  /// Whether the id was longer than ``capacity`` bytes.
  public private(set) var isTruncated = false

  public init(_ id: String) {
    var id = id
    id.withUTF8 { bytes in
      let kept = min(bytes.count, Self.capacity)
      withUnsafeMutableBytes(of: &words) { storage in
        storage.copyMemory(
          from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<kept])))
      }
      count = UInt8(kept)
      isTruncated = bytes.count > kept
    }
  }

  /// The id (its first ``capacity`` bytes when ``isTruncated``).
  public var string: String {
    withUTF8 { String(decoding: $0, as: UTF8.self) }
  }

  /// Runs `body` with the id's bytes.
  public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    try withUnsafeBytes(of: words) { storage in
      try body(UnsafeBufferPointer(rebasing: storage.bindMemory(to: UInt8.self)[..<Int(count)]))
    }
  }

  public static func == (lhs: LayerName, rhs: LayerName) -> Bool {
    lhs.count == rhs.count && lhs.isTruncated == rhs.isTruncated
      && withUnsafeBytes(of: lhs.words) { left in
        withUnsafeBytes(of: rhs.words) { right in left.elementsEqual(right) }
      }
  }

  public func hash(into hasher: inout Hasher) {
    withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hasher.combine(isTruncated)
  }
}
