import TransitionJSON
import TransitionKit

/// Writes text through a pointer into memory reserved beforehand, with no capacity check:
/// the caller reserves the frame's bound (numbers at most
/// ``TransitionJSON/FixedPrecisionNumber/maximumLength`` bytes each).
///
/// A number the fixed writer cannot write in that bound (a magnitude of 10^15 or more, which
/// the engine's bounds rule out) sets ``isIncomplete`` instead; the caller then writes the
/// frame again into a ``ByteSink``.
struct ReservedTextCursor: FrameTextOutput {
  private(set) var position: UnsafeMutablePointer<UInt8>
  private(set) var isIncomplete = false

  init(_ start: UnsafeMutablePointer<UInt8>) {
    position = start
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    position.pointee = byte
    position += 1
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inline(__always)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    position.update(from: base, count: bytes.count)
    position += bytes.count
  }

  /// Appends an integer (at most 20 bytes).
  @inline(__always)
  mutating func appendInteger(_ value: Int64) {
    if value < 0 { append(UInt8(ascii: "-")) }
    position += ByteSink.writeDigits(value.magnitude, to: position, at: 0)
  }

  @inline(__always)
  mutating func appendFixed(_ value: Double, prefix: UInt8) {
    guard let count = FixedPrecisionNumber.write(value, prefix: prefix, to: position) else {
      isIncomplete = true
      return
    }
    position += count
  }

  mutating func appendColor(_ color: Color) {
    color.writeJSON(to: position)
    position += Color.jsonLength
  }
}
