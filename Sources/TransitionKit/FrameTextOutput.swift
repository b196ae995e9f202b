import TransitionJSON

/// Where a frame's text is written: a `ByteSink` (every value into capacity reserved for it),
/// or the wire codec's cursor into memory reserved once for the whole frame. The layer fields
/// (``LayerField``) and the frame encoders write through it, generic over both.
public protocol FrameTextOutput {
  mutating func append(_ byte: UInt8)
  /// Appends literal ASCII text.
  mutating func append(_ text: StaticString)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
  mutating func appendInteger(_ value: Int64)
  /// Appends a number as `FixedPrecisionNumber` writes it, after `prefix` when it is not 0.
  mutating func appendFixed(_ value: Double, prefix: UInt8)
  /// Appends a colour as the JSON string `"#rrggbbaa"`.
  mutating func appendColor(_ color: Color)
}

extension ByteSink: FrameTextOutput {}
