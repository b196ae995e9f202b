/// Appends JSON text to a byte buffer without intermediate strings: the one JSON writer of the
/// project (`JSONValue.serialized`, requests, replies, frame events).
///
/// Numbers use Swift's shortest round-trip formatting (so a renderer reads back the engine's
/// exact bits), integers without a fraction; nothing here allocates once `bytes` has capacity.
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

  public mutating func appendInteger(_ value: Int64) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    if magnitude == 0 { return bytes.append(UInt8(ascii: "0")) }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      while magnitude > 0 {
        raw[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      while count > 0 {
        count -= 1
        bytes.append(raw[count])
      }
    }
  }

  /// Appends a JSON string literal, escaping what JSON requires.
  public mutating func appendString(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0..<0x20:
          append("\\u00")
          bytes.append(Self.hex[Int(byte >> 4)])
          bytes.append(Self.hex[Int(byte & 15)])
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static let hex = Array("0123456789abcdef".utf8)

  /// Appends `byte` as two lowercase hexadecimal digits.
  public mutating func appendHexByte(_ byte: UInt8) {
    bytes.append(Self.hex[Int(byte >> 4)])
    bytes.append(Self.hex[Int(byte & 15)])
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
