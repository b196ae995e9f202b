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

extension ByteSink {
  /// The most bytes ``appendFixed(_:prefix:)`` writes for a magnitude below 10^15: a prefix, a
  /// sign, 15 integer digits, the point and 15 decimals.
  static let fixedNumberBound = 40

  /// Appends `value` as ``FixedPrecisionNumber`` writes it, after the byte `prefix` when it is
  /// not 0 (a separator such as `,` or `[`), into capacity reserved once for both and written
  /// through a pointer.
  public mutating func appendFixed(_ value: Double, prefix: UInt8 = 0) {
    var value = value
    if !value.isFinite {
      value = value.isNaN ? 0 : (value > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
    }
    let magnitude = value.magnitude
    guard magnitude < 1e15 else { return appendLargeFixed(value, prefix: prefix) }
    bytes.append(addingCapacity: Self.fixedNumberBound) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        let out = buffer.baseAddress!
        var end = count
        if prefix != 0 {
          out[end] = prefix
          end += 1
        }
        // Whole numbers (frame boxes, z, 0 and 1 of matrices) need no scaling.
        if magnitude == magnitude.rounded(.towardZero) {
          let whole = UInt64(magnitude)
          if value < 0, whole != 0 {
            out[end] = UInt8(ascii: "-")
            end += 1
          }
          count = Self.writeDigits(whole, to: out, at: end)
          return
        }
        let decimals = FixedPrecisionNumber.decimals(forMagnitude: magnitude)
        let (scale, unit) = FixedPrecisionNumber.powerOfTen(decimals)
        var units = UInt64((magnitude * scale).rounded())
        if units == 0 {
          out[end] = UInt8(ascii: "0")
          count = end + 1
          return
        }
        if value < 0 {
          out[end] = UInt8(ascii: "-")
          end += 1
        }
        end = Self.writeDigits(units / unit, to: out, at: end)
        units %= unit
        guard units != 0 else {
          count = end
          return
        }
        // Drop trailing zeros of the fraction, then write it with its leading zeros.
        var digits = decimals
        while units % 10 == 0 {
          units /= 10
          digits -= 1
        }
        out[end] = UInt8(ascii: ".")
        count = Self.writeDigits(units, to: out, at: end + 1, width: digits)
      }
    }
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

  /// Writes the decimal digits of `value` at `out[index]`, left-padded with zeros to
  /// `width`; returns the index after the last digit.
  @inline(__always)
  static func writeDigits(
    _ value: UInt64, to out: UnsafeMutablePointer<UInt8>, at index: Int, width: Int = 1
  ) -> Int {
    var length = 1
    var bound: UInt64 = 10
    while length < 20, value >= bound {
      length += 1
      bound &*= 10
    }
    length = max(length, width)
    var rest = value
    var cursor = index + length
    while cursor > index {
      cursor -= 1
      out[cursor] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    return index + length
  }

  /// Writes the decimal digits of `value` into `span`.
  static func writeDigits(_ value: UInt64, into span: inout OutputSpan<UInt8>) {
    span.withUnsafeMutableBufferPointer { buffer, count in
      count = writeDigits(value, to: buffer.baseAddress!, at: count)
    }
  }
}
