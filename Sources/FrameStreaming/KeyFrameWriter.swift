import TransitionJSON

/// Turns a full frame line into the key frame of a delta subscription: the same line with
/// `"key":true` added before its closing brace (docs/protocol.md, "Delta frames"), into a
/// reused buffer.
public struct KeyFrameWriter {
  private var sink = ByteSink(capacity: 2_048)

  public init() {}

  /// Lends `body` the key frame that carries `line`, a `\n`-terminated full frame line
  /// (``FrameEncoder``'s), valid only during the call.
  public mutating func keyFrame<Result>(
    fromFull line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    sink.bytes.removeAll(keepingCapacity: true)
    // A full line ends with `}\n`.
    let kept = max(line.count - 2, 0)
    line.withMemoryRebound(to: UInt8.self) { bytes in
      sink.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<kept]))
    }
    sink.append(",\"key\":true}\n")
    return try sink.bytes.withUnsafeBytes(body)
  }

  /// The key frame that carries `line`, as a new array.
  public mutating func keyFrame(fromFull line: [UInt8]) -> [UInt8] {
    line.withUnsafeBytes { keyFrame(fromFull: $0) { Array($0) } }
  }
}
