/// Appends JSON text to a byte buffer without intermediate strings: the one JSON writer of the
/// project (`JSONValue.serialized`, requests, replies, frame events).
///
/// `appendNumber` uses Swift's shortest round-trip formatting (replies, timelines: a reader gets
/// the exact bits back), integers without a fraction; frames use the faster fixed-precision
/// ``appendFixed(_:prefix:)``. Each append reserves its worst case once and writes into that
/// capacity, so there is one capacity check per value rather than per byte; nothing here
/// allocates once `bytes` has capacity.
public struct ByteSink: TextOutputStream {
  public var bytes: [UInt8]

  public init(capacity: Int = 4096) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  public mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Receives the ASCII digits of `Double.write(to:)` straight from the standard library's
  /// stack buffer.
  public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }

  @inline(__always)
  public mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Appends literal ASCII text.
  @inline(__always)
  public mutating func append(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  public mutating func append(contentsOf other: [UInt8]) {
    bytes.append(contentsOf: other)
  }

  /// Appends bytes borrowed from elsewhere.
  public mutating func append(contentsOf other: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: other)
  }

  /// Appends a JSON number: whole numbers below 2^53 as integers, others in shortest
  /// round-trip form, non-finite ones (which JSON cannot carry) as `null`.
  public mutating func appendNumber(_ value: Double) {
    guard value.isFinite else { return append("null") }
    if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
      appendInteger(Int64(value))
    } else {
      value.write(to: &self)
    }
  }

  /// Appends a JSON number that is never `null`: NaN as 0, ±infinity as ±`greatestFiniteMagnitude`,
  /// finite values as `appendNumber` writes them. For frames, whose numbers must always read
  /// back as numbers; the engine's bounds keep them finite, this is the last line of defence.
  public mutating func appendFiniteNumber(_ value: Double) {
    if value.isFinite { return appendNumber(value) }
    if value.isNaN { return append(UInt8(ascii: "0")) }
    appendNumber(value > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
  }

  /// Appends an integer, into capacity reserved once.
  public mutating func appendInteger(_ value: Int64) {
    bytes.append(addingCapacity: 21) { span in
      if value < 0 { span.append(UInt8(ascii: "-")) }
      Self.writeDigits(value.magnitude, into: &span)
    }
  }

  /// Appends a JSON string literal, escaping what JSON requires, into capacity reserved once
  /// for the worst case (every byte escaped as `\u00XX`).
  public mutating func appendString(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      // Most strings (ids, names) have nothing to escape: their bytes are copied as they are.
      let needsEscape = utf8.contains {
        $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
      }
      guard needsEscape else {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return
      }
      bytes.append(addingCapacity: utf8.count * 6 + 2) { span in
        span.append(UInt8(ascii: "\""))
        for byte in utf8 {
          switch byte {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            span.append(UInt8(ascii: "\\"))
            span.append(byte)
          case 0x0A:
            span.append(UInt8(ascii: "\\"))
            span.append(UInt8(ascii: "n"))
          case 0x0D:
            span.append(UInt8(ascii: "\\"))
            span.append(UInt8(ascii: "r"))
          case 0x09:
            span.append(UInt8(ascii: "\\"))
            span.append(UInt8(ascii: "t"))
          case 0..<0x20:
            span.append(UInt8(ascii: "\\"))
            span.append(UInt8(ascii: "u"))
            span.append(UInt8(ascii: "0"))
            span.append(UInt8(ascii: "0"))
            span.append(Self.hexDigit(byte >> 4))
            span.append(Self.hexDigit(byte & 15))
          default: span.append(byte)
          }
        }
        span.append(UInt8(ascii: "\""))
      }
    }
  }

  /// The lowercase hexadecimal digit of `nibble` (0 to 15).
  @inline(__always)
  public static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
  }

  /// Appends any JSON value (object keys sorted).
  public mutating func appendJSON(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let flag): flag ? append("true") : append("false")
    case .number(let number): appendNumber(number)
    case .string(let string): appendString(string)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        appendJSON(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      // One member (a layer's usual `content`) needs no sorting.
      if members.count == 1, let (key, value) = members.first {
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        appendJSON(value)
        bytes.append(UInt8(ascii: "}"))
        return
      }
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        appendJSON(members[key] ?? .null)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }
}
