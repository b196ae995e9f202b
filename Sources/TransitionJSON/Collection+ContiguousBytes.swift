extension Collection<UInt8> {
  /// Lends `body` the bytes in one buffer: in place when they already lie in one (an array,
  /// a slice of one, a buffer), otherwise gathered into a new array first. The buffer is valid
  /// only during the call.
  @inlinable @inline(__always)
  public func withContiguousBytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = withContiguousStorageIfAvailable(body) { return result }
    return Array(self).withUnsafeBufferPointer(body)
  }
}
