/// The frame number writer: a fixed-precision decimal writer for the numbers of `frame`
/// events, faster than shortest round-trip printing and at a precision no renderer can see
/// (docs/protocol.md, "Numbers in frames").
///
/// A number is written in plain decimal notation, rounded to `d` decimals, where `d` is the
/// larger of 3 and the count that keeps 7 significant digits, and at most 15:
///
/// | magnitude | decimals |
/// | --- | --- |
/// | 1000 and above | 3 |
/// | [100, 1000) | 4 |
/// | [10, 100) | 5 |
/// | [1, 10) | 6 |
/// | [10⁻ᵏ, 10⁻ᵏ⁺¹), k = 1 … 9 | 6 + k |
/// | below 10⁻⁹ | 15 |
///
/// so positions and sizes are exact to 1/2000 px (0.5 × 10⁻³) and every number keeps at least 7
/// significant digits down to 10⁻⁹ (below that the error is at most 0.5 × 10⁻¹⁵). Whole numbers
/// are written without a fraction, trailing zeros are dropped, and the text is never `-0`,
/// never has an exponent, and is never NaN or an infinity: NaN is written `0` and an
/// infinity as the largest finite double in full (the engine's bounds keep frames finite;
/// this is the last line of defence).
public enum FixedPrecisionNumber {
  /// The significant digits a written number keeps at least (down to 10⁻⁹).
  public static let significantDigits = 7
  /// The fewest decimals written (positions to 1/1000 px or better).
  public static let minimumDecimals = 3
  /// The most decimals written.
  public static let maximumDecimals = 15

  /// The decimals a finite `magnitude` (≥ 0) is rounded to.
  @inline(__always)
  public static func decimals(forMagnitude magnitude: Double) -> Int {
    if magnitude >= 1e3 { return 3 }
    if magnitude >= 1e2 { return 4 }
    if magnitude >= 1e1 { return 5 }
    if magnitude >= 1 { return 6 }
    if magnitude >= 1e-1 { return 7 }
    if magnitude >= 1e-2 { return 8 }
    if magnitude >= 1e-3 { return 9 }
    if magnitude >= 1e-4 { return 10 }
    if magnitude >= 1e-5 { return 11 }
    if magnitude >= 1e-6 { return 12 }
    if magnitude >= 1e-7 { return 13 }
    if magnitude >= 1e-8 { return 14 }
    return 15
  }

  /// 10^`exponent` for `exponent` in 0...15, as a double (exact) and as an integer.
  @inline(__always)
  static func powerOfTen(_ exponent: Int) -> (Double, UInt64) {
    switch exponent {
    case 3: (1e3, 1_000)
    case 4: (1e4, 10_000)
    case 5: (1e5, 100_000)
    case 6: (1e6, 1_000_000)
    case 7: (1e7, 10_000_000)
    case 8: (1e8, 100_000_000)
    case 9: (1e9, 1_000_000_000)
    case 10: (1e10, 10_000_000_000)
    case 11: (1e11, 100_000_000_000)
    case 12: (1e12, 1_000_000_000_000)
    case 13: (1e13, 10_000_000_000_000)
    case 14: (1e14, 100_000_000_000_000)
    case 15: (1e15, 1_000_000_000_000_000)
    case 0: (1, 1)
    case 1: (1e1, 10)
    default: (1e2, 100)
    }
  }
}

extension FixedPrecisionNumber {
  /// The most bytes ``write(_:prefix:to:)`` writes, with 2 to spare: 22 at most, a prefix, a
  /// sign and 20 characters. Below 10^15 a whole number has at most 15 digits; otherwise the
  /// rounded units have at most 19 digits (below 10^18, as magnitudes of 1000 and more keep
  /// 3 decimals, and 8 digits for smaller ones), written with a point, or `0.` and at most 15
  /// decimals.
  public static let maximumLength = 24

  /// Writes `value` as the frame number writer spells it at `out`, after the byte `prefix`
  /// when it is not 0, and returns the count of bytes written (at most ``maximumLength``);
  /// nil, having written nothing, for a value that is not finite or whose magnitude is 10^15
  /// or more (``ByteSink/appendFixed(_:prefix:)`` writes those). `out` must have room for
  /// ``maximumLength`` bytes: the bytes after the text, within that room, may be overwritten.
  @inline(__always)
  public static func write(_ value: Double, prefix: UInt8, to out: UnsafeMutablePointer<UInt8>)
    -> Int?
  {
    let magnitude = value.magnitude
    // Also false for NaN.
    guard magnitude < 1e15 else { return nil }
    var end = 0
    if prefix != 0 {
      out[0] = prefix
      end = 1
    }
    // Below 10^15 a double converts to an integer exactly when it is whole (no libm call;
    // signed conversions, which are one instruction each way).
    let whole = Int64(magnitude)
    if Double(whole) == magnitude {
      // Whole numbers (frame boxes, z, 0 and 1 of matrices) need no scaling.
      if value < 0, whole != 0 {
        out[end] = UInt8(ascii: "-")
        end += 1
      }
      // One digit (the 0s and 1s of matrices): no digit count.
      if whole < 10 {
        out[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole)
        return end + 1
      }
      return ByteSink.writeDigits(UInt64(whole), to: out, at: end)
    }
    let decimals = decimals(forMagnitude: magnitude)
    let units = roundedToNearest(magnitude * powerOfTen(decimals).0)
    if units == 0 {
      out[end] = UInt8(ascii: "0")
      return end + 1
    }
    if value < 0 {
      out[end] = UInt8(ascii: "-")
      end += 1
    }
    return ByteSink.writeScaledDigits(units, decimals: decimals, to: out, at: end)
  }

  /// `scaled.rounded()` (halves away from zero) as an integer, for 0 ≤ `scaled` < 2^63,
  /// without a libm call: the integer part, plus one when the fraction (exact below 2^52, 0
  /// above, where every double is whole) is a half or more.
  @inline(__always)
  static func roundedToNearest(_ scaled: Double) -> UInt64 {
    let truncated = Int64(scaled)
    let rounded = scaled - Double(truncated) >= 0.5 ? truncated + 1 : truncated
    return UInt64(rounded)
  }
}

extension ByteSink {
  /// Appends `value` as ``FixedPrecisionNumber`` writes it, after the byte `prefix` when it is
  /// not 0 (a separator such as `,` or `[`), into capacity reserved once for both and written
  /// through a pointer.
  public mutating func appendFixed(_ value: Double, prefix: UInt8 = 0) {
    var value = value
    if !value.isFinite {
      value = value.isNaN ? 0 : (value > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
    }
    guard value.magnitude < 1e15 else { return appendLargeFixed(value, prefix: prefix) }
    bytes.append(addingCapacity: FixedPrecisionNumber.maximumLength) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        let out = buffer.baseAddress! + count
        count += FixedPrecisionNumber.write(value, prefix: prefix, to: out) ?? 0
      }
    }
  }

  /// Writes `units` / 10^`decimals` (`units` ≥ 1) at `out[index]` with no division by a
  /// variable: all digits of `units` are written once, right to left two at a time, one byte
  /// after the integer part, which then moves left to make room for the point (or, below 1,
  /// after `0.` and the leading zeros of the fraction); trailing zeros of the fraction, and a
  /// point left without digits, are dropped. Returns the index after the last byte. Units
  /// below 10^8 (every number of 7 significant digits) go the way of
  /// ``writeEightDigitScaled(_:decimals:to:)``, which may write past the text up to
  /// `out[index + 21]`.
  @inline(__always)
  static func writeScaledDigits(
    _ units: UInt64, decimals: Int, to out: UnsafeMutablePointer<UInt8>, at index: Int
  ) -> Int {
    if units < 100_000_000, decimals <= 13 {
      return index
        + writeEightDigitScaled(
          UInt32(truncatingIfNeeded: units), decimals: decimals, to: out + index)
    }
    let length = digitCount(units)
    var last: Int
    if length > decimals {
      let integerLength = length - decimals
      writeDigitsBackward(units, endingAt: out + index + 1 + length)
      for position in index..<(index + integerLength) { out[position] = out[position + 1] }
      out[index + integerLength] = UInt8(ascii: ".")
      last = index + length
    } else {
      out[index] = UInt8(ascii: "0")
      out[index + 1] = UInt8(ascii: ".")
      let zeros = decimals - length
      for position in (index + 2)..<(index + 2 + zeros) { out[position] = UInt8(ascii: "0") }
      writeDigitsBackward(units, endingAt: out + index + 2 + decimals)
      last = index + 1 + decimals
    }
    while out[last] == UInt8(ascii: "0") { last -= 1 }
    if out[last] == UInt8(ascii: ".") { last -= 1 }
    return last + 1
  }

  /// Writes `units` / 10^`decimals` (1 ≤ `units` < 10^8, 3 ≤ `decimals` ≤ 13) at `out` as
  /// ``writeScaledDigits(_:decimals:to:at:)`` spells it, from the eight digits of `units`
  /// made at once (``eightDigits(_:)``) and stored eight bytes at a time: the integer digits
  /// and, over them from just after the point, the fraction's; or, below 1, `0.`, a run of
  /// zeros and the digits over it. Returns the count of bytes of the text; the stores may
  /// write scratch bytes after it, up to `out[21]`.
  @inline(__always)
  static func writeEightDigitScaled(
    _ units: UInt32, decimals: Int, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let digits = eightDigits(units)
    // The number's leading zeros are the first digits' zero bytes, the lowest ones.
    let length = 8 &- (digits.trailingZeroBitCount >> 3)
    // The significant digits from the lowest byte: the leading zeros shifted out.
    let significant = (digits | asciiZeros) >> (8 &* (8 &- length))
    // The fraction's trailing zeros are the last digits' zero bytes, the highest ones.
    let trailingZeros = digits.leadingZeroBitCount >> 3
    let raw = UnsafeMutableRawPointer(out)
    guard length > decimals else {
      out[0] = UInt8(ascii: "0")
      out[1] = UInt8(ascii: ".")
      raw.storeBytes(of: asciiZeros, toByteOffset: 2, as: UInt64.self)
      raw.storeBytes(of: asciiZeros, toByteOffset: 10, as: UInt64.self)
      raw.storeBytes(
        of: significant.littleEndian, toByteOffset: 2 &+ decimals &- length, as: UInt64.self)
      return 2 &+ decimals &- trailingZeros
    }
    let integerLength = length &- decimals
    raw.storeBytes(of: significant.littleEndian, as: UInt64.self)
    raw.storeBytes(
      of: (significant >> (8 &* integerLength)).littleEndian, toByteOffset: integerLength &+ 1,
      as: UInt64.self)
    out[integerLength] = UInt8(ascii: ".")
    let fractionLength = decimals &- min(trailingZeros, decimals)
    return fractionLength == 0 ? integerLength : integerLength &+ 1 &+ fractionLength
  }

  /// Eight ASCII zeros, as a word.
  private static let asciiZeros: UInt64 = 0x3030_3030_3030_3030

  /// The eight decimal digits of `value` (< 10^8), leading zeros included, as numbers 0–9 a
  /// byte, the first digit in the lowest byte: the word's bytes in the order the digits are
  /// written. Made without a loop or a division by a variable: the two halves of four digits
  /// in a 32-bit lane each, each split into its two pairs in 16-bit lanes, each pair into its
  /// two digits, every lane at once (a quotient by 100 is `(v × 5243) >> 19` below 43,699, by 10
  /// `(v × 103) >> 10` below 179).
  @inline(__always)
  static func eightDigits(_ value: UInt32) -> UInt64 {
    let halves = UInt64(value / 10_000) | (UInt64(value % 10_000) << 32)
    let hundreds = ((halves &* 5243) >> 19) & 0x0000_007F_0000_007F
    let pairs = hundreds | ((halves &- hundreds &* 100) << 16)
    let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
    return tens | ((pairs &- tens &* 10) << 8)
  }

  /// The count of decimal digits of `value` (1 for 0).
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    // floor(log10(2^bits)) from the bit length, then one comparison with a power of ten.
    let bits = 64 - (value | 1).leadingZeroBitCount
    let guess = (bits &* 1233) >> 12
    return max(1, guess + (value >= integerPowerOfTen(guess) ? 1 : 0))
  }

  /// 10^`exponent` for `exponent` in 0...19.
  @inline(__always)
  static func integerPowerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    default: 10_000_000_000_000_000_000
    }
  }

  /// "00", "01", … "99": the two digits of every number below 100, one after another.
  static let digitPairs: StaticString =
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Writes the decimal digits of `value` so that the last one is just before `end`, two at
  /// a time from the pair table; returns where the first digit went.
  @inline(__always)
  @discardableResult
  static func writeDigitsBackward(
    _ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let pairs = digitPairs.utf8Start
    var rest = value
    var cursor = end
    while rest >= 100 {
      let quotient = rest / 100
      let pair = Int(truncatingIfNeeded: rest &- quotient &* 100) &* 2
      cursor -= 2
      cursor[0] = pairs[pair]
      cursor[1] = pairs[pair &+ 1]
      rest = quotient
    }
    if rest >= 10 {
      let pair = Int(truncatingIfNeeded: rest) &* 2
      cursor -= 2
      cursor[0] = pairs[pair]
      cursor[1] = pairs[pair &+ 1]
    } else {
      cursor -= 1
      cursor[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
    return cursor
  }

  /// Magnitudes of 10^15 and above: whole numbers, all digits written (up to 309 of them),
  /// exact below 2^63 and otherwise the shortest digits that read back to the same double,
  /// padded with zeros (so that even the largest double reads back finite).
  private mutating func appendLargeFixed(_ value: Double, prefix: UInt8) {
    let magnitude = value.magnitude
    var digits: [UInt8]
    if magnitude < 9.2e18 {
      var whole = ByteSink(capacity: 24)
      whole.appendInteger(Int64(magnitude.rounded()))
      digits = whole.bytes
    } else {
      // `description` is `d.ddddde+XX` here: its digits, then zeros up to the exponent.
      let text = Array(magnitude.description.utf8)
      let e = text.firstIndex(of: UInt8(ascii: "e")) ?? text.count
      let mantissa = text[..<e].filter { $0 != UInt8(ascii: ".") }
      let exponent =
        Int(String(decoding: text[(e + 1)...].filter { $0 != UInt8(ascii: "+") }, as: UTF8.self))
        ?? 0
      digits = Array(mantissa)
      let length = exponent + 1
      if digits.count < length {
        digits += [UInt8](repeating: UInt8(ascii: "0"), count: length - digits.count)
      }
    }
    bytes.append(addingCapacity: digits.count + 2) { span in
      if prefix != 0 { span.append(prefix) }
      if value < 0 { span.append(UInt8(ascii: "-")) }
      for digit in digits { span.append(digit) }
    }
  }

  /// Writes the decimal digits of `value` at `out[index]` (at most 20); returns the index
  /// after the last digit.
  @inline(__always)
  public static func writeDigits(
    _ value: UInt64, to out: UnsafeMutablePointer<UInt8>, at index: Int
  )
    -> Int
  {
    let end = index + digitCount(value)
    writeDigitsBackward(value, endingAt: out + end)
    return end
  }

  /// Writes the decimal digits of `value` into `span`.
  static func writeDigits(_ value: UInt64, into span: inout OutputSpan<UInt8>) {
    span.withUnsafeMutableBufferPointer { buffer, count in
      count = writeDigits(value, to: buffer.baseAddress!, at: count)
    }
  }
}
