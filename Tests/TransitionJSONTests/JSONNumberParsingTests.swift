import Testing
import TransitionJSON

/// Numbers read without a text round trip (the exact fast path) are the Doubles the standard
/// library's correctly rounded parser gives for the same text, bit for bit.
@Suite struct JSONNumberParsingTests {
  /// Number texts of every shape the grammar allows: a sign, integer digits (a single 0 or
  /// 1–18 digits), fraction digits (none or 1–24, with leading zeros), an exponent (none, or
  /// `e`/`E` with a sign and 1–3 digits), drawn from a fixed sequence.
  private func texts(count: Int) -> [String] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(next(10))) })
    }
    return (0..<count).map { _ in
      var text = next(4) == 0 ? "-" : ""
      let integerCount = next(19)
      text += integerCount == 0 ? "0" : String(next(9) + 1) + digits(integerCount - 1)
      if next(4) != 0 {
        text += "." + String(repeating: "0", count: next(4)) + digits(next(21) + 1)
      }
      if next(3) == 0 {
        text +=
          (next(2) == 0 ? "e" : "E") + ["", "+", "-"][next(3)]
          + String(next(next(2) == 0 ? 30 : 400))
      }
      return text
    }
  }

  @Test func numbersAreTheCorrectlyRoundedDoubles() throws {
    for text in texts(count: 20_000) {
      guard let expected = Double(text), expected.isFinite else {
        #expect(throws: JSONSyntaxError.self, "\(text)") {
          try JSONValue(parsing: Array(text.utf8))
        }
        continue
      }
      let value = try JSONValue(parsing: Array(text.utf8))
      guard case .number(let number) = value else {
        Issue.record("\(text) read as \(value)")
        continue
      }
      #expect(number.bitPattern == expected.bitPattern, "\(text): \(number) != \(expected)")
    }
  }

  @Test func edgesOfTheExactRange() throws {
    for text in [
      "0", "-0", "-0.0", "0.1", "0.3", "123456789012345", "1234567890123456",
      "0.000000000000000000001",
      "9007199254740993", "1e22", "1e23", "1.5e-22", "1.5e-23", "999999999999999e22",
      "4.35", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
    ] {
      let value = try JSONValue(parsing: Array(text.utf8))
      #expect(value == .number(Double(text)!), "\(text)")
      if case .number(let number) = value {
        #expect(number.bitPattern == Double(text)!.bitPattern, "\(text)")
      }
    }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array("1e400".utf8)) }
  }
}
