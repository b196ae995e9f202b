import Foundation
import Testing

@testable import TransitionJSON

/// The frame number writer (docs/protocol.md, "Numbers in frames"): 7 significant digits and
/// at least 3 decimals, plain decimal notation, never `-0`, an exponent, NaN or an infinity.
@Suite struct FixedPrecisionNumberTests {
  private func written(_ value: Double) -> String {
    var sink = ByteSink(capacity: 64)
    sink.appendFixed(value)
    return String(decoding: sink.bytes, as: UTF8.self)
  }

  /// The largest error the stated precision allows for `value`.
  private func allowedError(_ value: Double) -> Double {
    let magnitude = abs(value)
    if magnitude >= 1e15 { return magnitude * 1e-15 }
    let decimals = FixedPrecisionNumber.decimals(forMagnitude: magnitude)
    // Half a unit of the last decimal, plus the rounding of the scaling itself.
    return 0.5 * pow(10, -Double(decimals)) * (1 + 1e-9) + magnitude * 4e-16
  }

  @Test func writesTheStatedDigits() {
    #expect(written(0) == "0")
    #expect(written(390) == "390")
    #expect(written(-12) == "-12")
    #expect(written(0.5) == "0.5")
    #expect(written(1.0 / 3) == "0.3333333")
    #expect(written(2.0 / 3) == "0.6666667")
    #expect(written(12.345678901) == "12.34568")
    #expect(written(1234.56789) == "1234.568")
    #expect(written(-1.0 / 500) == "-0.002")
    #expect(written(-0.0019999999999999996) == "-0.002")
    #expect(written(-2.5e-7) == "-0.00000025")
    #expect(written(123_456_789.125) == "123456789.125")
    #expect(written(0.99999999) == "1")
    #expect(written(1e21) == "1000000000000000000000")
  }

  @Test func wholeNumbersAreWrittenAsTheirDigits() {
    for whole in -120...120 {
      #expect(written(Double(whole)) == String(whole))
    }
    #expect(written(-0.0) == "0")
  }

  @Test func decimalsKeepSevenSignificantDigitsAndAtLeastThree() {
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 5_000) == 3)
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 500) == 4)
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 5) == 6)
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 0.5) == 7)
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 0.002) == 9)
    #expect(FixedPrecisionNumber.decimals(forMagnitude: 1e-12) == 15)
  }

  @Test func neverWritesMinusZero() {
    for value in [-0.0, -1e-20, -4e-16, -1e-300, -Double.leastNonzeroMagnitude] {
      #expect(written(value) == "0", "\(value)")
    }
  }

  @Test func nonFiniteNumbersStillWriteNumbers() {
    #expect(written(.nan) == "0")
    let infinity = written(.infinity)
    #expect(infinity.count == 309)
    #expect(infinity.allSatisfy { $0.isNumber })
    #expect(written(-.infinity) == "-" + infinity)
    // The largest double, written in full, reads back as itself (not as an infinity).
    #expect(Double(infinity) == .greatestFiniteMagnitude)
    #expect(Double(written(-1.2345e300)) == -1.2345e300)
  }

  @Test func randomValuesReadBackWithinThePrecisionAndInPlainNotation() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let exponent = Double.random(in: -12...18, using: &generator)
      let value =
        (Bool.random(using: &generator) ? 1 : -1) * pow(10, exponent)
        * Double.random(in: 1...9.99, using: &generator)
      let text = written(value)
      #expect(text != "-0")
      #expect(!text.contains("e") && !text.contains("E") && !text.contains("n"), "\(text)")
      #expect(!text.hasSuffix("."))
      if text.contains(".") { #expect(!text.hasSuffix("0"), "\(text)") }
      let read = try #require(Double(text))
      #expect(abs(read - value) <= allowedError(value), "\(value) was written \(text)")
    }
  }

  /// The writer's text spelled the plain way: the rounded units in decimal (Swift's own
  /// integer printing), a point before the last `decimals` digits, trailing zeros dropped.
  private func reference(_ value: Double) -> String {
    let magnitude = abs(value)
    if magnitude == magnitude.rounded(.towardZero) {
      let whole = String(UInt64(magnitude))
      return (value < 0 && whole != "0" ? "-" : "") + whole
    }
    let decimals = FixedPrecisionNumber.decimals(forMagnitude: magnitude)
    let units = UInt64((magnitude * pow(10, Double(decimals))).rounded())
    if units == 0 { return "0" }
    var digits = String(units)
    if digits.count <= decimals {
      digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
    }
    var integer = String(digits.dropLast(decimals))
    var fraction = String(digits.suffix(decimals))
    while fraction.hasSuffix("0") { fraction.removeLast() }
    if !fraction.isEmpty { integer += "." + fraction }
    return (value < 0 ? "-" : "") + integer
  }

  @Test func digitsFromThePairTableMatchThePlainSpelling() {
    // Every digit count of the units, both sides of each power of ten and of each decimals
    // boundary, and whole numbers up to 2^63.
    var values: [Double] = [0, 1, 9, 10, 99, 100, 101, 999_999_999_999_999]
    for exponent in -15...15 {
      let power = pow(10, Double(exponent))
      values += [power, power.nextUp, power.nextDown, power * 1.5, power * 9.999_999_9]
      values += [power * 0.999_999_95, power * 1.000_000_5, power * 1.234_567_8]
    }
    for exponent in 0...18 { values.append(pow(10, Double(exponent)) - 1) }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let exponent = Double.random(in: -16...15, using: &generator)
      values.append(pow(10, exponent) * Double.random(in: 1..<10, using: &generator))
      values.append(Double(UInt64.random(in: 0..<(1 << 63), using: &generator)))
    }
    for value in values where abs(value) < 1e15 || value == value.rounded(.towardZero) {
      guard abs(value) < 9.2e18 else { continue }
      #expect(written(value) == reference(value), "\(value)")
      #expect(written(-value) == reference(-value), "\(-value)")
    }
  }

  /// `units` / 10^`decimals` spelled the plain way (Swift's integer printing, a point
  /// before the last `decimals` digits, trailing zeros and a bare point dropped).
  private func plainScaled(_ units: UInt64, decimals: Int) -> String {
    var digits = String(units)
    if digits.count <= decimals {
      digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
    }
    var fraction = String(digits.suffix(decimals))
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let integer = String(digits.dropLast(decimals))
    return fraction.isEmpty ? integer : integer + "." + fraction
  }

  @Test func eightDigitsAtOnceAreTheDigitsOneByOne() {
    var values: [UInt32] = [0, 1, 9, 10, 99, 100, 4_839_103, 10_000_000, 99_999_999]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<100_000 { values.append(UInt32.random(in: 0..<100_000_000, using: &generator)) }
    for value in values {
      let word = ByteSink.eightDigits(value)
      let digits = (0..<8).map { Character(String((word >> (8 * $0)) & 0xFF)) }
      let padded = String(repeating: "0", count: 8 - String(value).count) + String(value)
      #expect(String(digits) == padded, "\(value)")
    }
  }

  /// Every digit count at every decimals count the writer uses, both sides of each power of
  /// ten, trailing zeros of every length: the text is the plain spelling, and nothing is
  /// written past the room the writer claims (`out[21]`).
  @Test func scaledUnitsBelowTenToTheEighthAreSpelledPlainlyWithinTheirRoom() {
    var units: [UInt64] = [1, 9, 10, 11, 99_999_999, 10_000_000, 4_839_103, 1_021_739, 2_500_000]
    for exponent in 0...7 {
      let power = UInt64(pow(10, Double(exponent)))
      units += [power, power &- 1, power &+ 1, power * 3, power * 7 + 1]
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 { units.append(UInt64.random(in: 1..<100_000_000, using: &generator)) }
    let guardByte: UInt8 = 0xEE
    for unit in units where unit >= 1 && unit < 100_000_000 {
      for decimals in 3...13 {
        var buffer = [UInt8](repeating: guardByte, count: 40)
        let count = buffer.withUnsafeMutableBufferPointer {
          ByteSink.writeEightDigitScaled(UInt32(unit), decimals: decimals, to: $0.baseAddress!)
        }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        #expect(text == plainScaled(unit, decimals: decimals), "\(unit) / 10^\(decimals)")
        #expect(buffer[22...].allSatisfy { $0 == guardByte }, "\(unit) / 10^\(decimals)")
      }
    }
  }

  @Test func appendsAfterTheGivenPrefixInOneReservation() {
    var sink = ByteSink(capacity: 4)
    sink.appendFixed(1.5, prefix: UInt8(ascii: "["))
    sink.appendFixed(-0.25, prefix: UInt8(ascii: ","))
    sink.append(UInt8(ascii: "]"))
    #expect(String(decoding: sink.bytes, as: UTF8.self) == "[1.5,-0.25]")
  }

  @Test func roundingWithoutLibmIsRoundingHalvesAwayFromZero() {
    var values: [Double] = [0, 0.5, 1.5, 2.5, 0.49999999999999994, 4_503_599_627_370_495.5]
    values += [9_007_199_254_740_992, 1e18, 123.5.nextDown, 123.5.nextUp]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      values.append(pow(10, Double.random(in: -3...18, using: &generator)))
      values.append(Double(Int.random(in: 0..<1_000_000, using: &generator)) + 0.5)
    }
    for value in values {
      #expect(FixedPrecisionNumber.roundedToNearest(value) == UInt64(value.rounded()), "\(value)")
    }
  }

  @Test func writingThroughAPointerWritesWhatTheSinkWrites() {
    var values: [Double] = [0, -0.0, 1, -1, 0.1, 1.0 / 3, 999_999_999_999_999.9, -2.5e-7, 1e-300]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<10_000 {
      let exponent = Double.random(in: -16...15, using: &generator)
      values.append(pow(10, exponent) * Double.random(in: -10..<10, using: &generator))
    }
    var buffer = [UInt8](repeating: 0, count: FixedPrecisionNumber.maximumLength)
    for value in values where abs(value) < 1e15 {
      let count = buffer.withUnsafeMutableBufferPointer {
        FixedPrecisionNumber.write(value, prefix: UInt8(ascii: ","), to: $0.baseAddress!)
      }
      #expect(count != nil && count! <= 22, "\(value)")
      #expect(Array(buffer.prefix(count ?? 0)) == [UInt8(ascii: ",")] + Array(written(value).utf8))
    }
  }

  @Test func numbersFromTenToTheFifteenthAndNonFiniteOnesAreLeftToTheSink() {
    for value in [1e15, -1e15, 1e300, .infinity, -.infinity, .nan] {
      var buffer = [UInt8](repeating: 0, count: FixedPrecisionNumber.maximumLength)
      let count = buffer.withUnsafeMutableBufferPointer {
        FixedPrecisionNumber.write(value, prefix: 0, to: $0.baseAddress!)
      }
      #expect(count == nil, "\(value)")
      #expect(buffer.allSatisfy { $0 == 0 })
    }
  }
}
