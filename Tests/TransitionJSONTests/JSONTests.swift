import Testing
import TransitionJSON

/// The JSON parser accepts RFC 8259 documents, rejects malformed ones naming the byte offset,
/// and serialization reads back to the same value.
@Suite struct JSONTests {
  // MARK: - Accepted documents

  @Test func nestedDocumentParsesToTheExpectedValue() throws {
    let text = """
       {"a": [1, 2.5, -3e2, 4E+1, 5e-1, 0, 0.125],
        "b": {"c": null, "d": true, "e": false},
        "s": "x", "empty": {}, "none": []}\t\r\n
      """
    let expected = JSONValue.object([
      "a": .array([
        .number(1), .number(2.5), .number(-300), .number(40), .number(0.5), .number(0),
        .number(0.125),
      ]),
      "b": .object(["c": .null, "d": .bool(true), "e": .bool(false)]),
      "s": .string("x"), "empty": .object([:]), "none": .array([]),
    ])
    #expect(try JSONValue(parsing: text) == expected)
  }

  @Test func scalarsAreDocumentsToo() throws {
    #expect(try JSONValue(parsing: "3") == .number(3))
    #expect(try JSONValue(parsing: " \"s\" ") == .string("s"))
    #expect(try JSONValue(parsing: "null") == .null)
    #expect(try JSONValue(parsing: "  true  ") == .bool(true))
    #expect(try JSONValue(parsing: "-0") == .number(0))
    #expect(try JSONValue(parsing: "0.000") == .number(0))
  }

  @Test func numbersWithExponentsParse() throws {
    #expect(try JSONValue(parsing: "1e2") == .number(100))
    #expect(try JSONValue(parsing: "1E+2") == .number(100))
    #expect(try JSONValue(parsing: "-1.5E-3") == .number(-0.0015))
    #expect(try JSONValue(parsing: "2e007") == .number(20_000_000))
    #expect(try JSONValue(parsing: "1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    #expect(try JSONValue(parsing: "123456789012345678") == .number(123_456_789_012_345_680))
  }

  @Test func everyEscapeDecodes() throws {
    let text = #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC""#
    #expect(try JSONValue(parsing: text) == .string("\"\\/\u{08}\u{0C}\n\r\tAé€"))
  }

  @Test func surrogatePairDecodesToOneScalar() throws {
    // U+1F600 = D83D DE00 in UTF-16.
    let value = try JSONValue(parsing: #""a\ud83d\ude00b""#)
    #expect(value == .string("a\u{1F600}b"))
    #expect(value.stringValue?.unicodeScalars.count == 3)
  }

  @Test func rawUTF8TextPassesThrough() throws {
    #expect(try JSONValue(parsing: "\"héllo ✓ 😀\"") == .string("héllo ✓ 😀"))
  }

  @Test func nestingOf64LevelsIsAccepted() throws {
    let arrays = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    var expected = JSONValue.array([])
    for _ in 1..<64 { expected = .array([expected]) }
    #expect(try JSONValue(parsing: arrays) == expected)
    let objects = String(repeating: "{\"k\":", count: 63) + "{}" + String(repeating: "}", count: 63)
    #expect(throws: Never.self) { try JSONValue(parsing: objects) }
  }

  // MARK: - Rejected documents

  /// Malformed documents with the byte offset of the problem, derived by hand.
  @Test(arguments: [
    ("", 0), ("   ", 3), ("[", 1), ("[1,2,]", 5), ("{\"a\":1,}", 7), ("[1 2]", 3), ("{a:1}", 1),
    ("{\"a\" 1}", 5), ("{\"a\":}", 5), ("[1]x", 3), ("{}{}", 2), ("tru", 0), ("nul", 0),
    ("trux", 0), (".5", 0), ("+1", 0), ("1.", 2), ("1.e3", 2), ("1e", 2), ("1e+", 3), ("-", 1),
    ("NaN", 0), ("Infinity", 0), ("-Infinity", 1), ("'a'", 0), ("\"abc", 4),
    ("\"a\u{01}b\"", 2), (#""\x""#, 3), (#""\u12G4""#, 5), ("[,1]", 1), ("//\n1", 0),
  ])
  func malformedDocumentIsRejectedAtItsByteOffset(text: String, offset: Int) {
    let error = parseError(text)
    #expect(error?.offset == offset)
    #expect(error?.message.contains("at byte \(offset)") == true, "\(error?.message ?? "accepted")")
  }

  /// RFC 8259 `int = zero / ( digit1-9 *DIGIT )`: a leading zero is not JSON.
  @Test(arguments: [("01", 1), ("-01", 2), ("00", 1), ("[01]", 2), ("{\"a\":007}", 6), ("01.5", 1)])
  func leadingZeroIsRejected(text: String, offset: Int) {
    let error = parseError(text)
    #expect(error?.offset == offset)
    #expect(error?.message.contains("at byte \(offset)") == true, "\(error?.message ?? "accepted")")
  }

  @Test(arguments: ["1e400", "-1e400", "[1, 2e999]", "{\"x\": 1.5e309}"])
  func numberTooLargeForADoubleIsRejected(text: String) {
    let error = parseError(text)
    #expect(error != nil)
    #expect(error?.message.contains("byte") == true)
  }

  @Test func nestingDeeperThan64IsRejected() {
    // The 65th opening bracket sits at offset 64.
    let arrays = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    let error = parseError(arrays)
    #expect(error != nil)
    #expect(error?.message.contains("at byte 64") == true)
    let mixed = String(repeating: "[{\"k\":", count: 33) + "1" + String(repeating: "}]", count: 33)
    #expect(parseError(mixed) != nil)
  }

  @Test(arguments: [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#])
  func unpairedSurrogateIsRejected(text: String) {
    let error = parseError(text)
    #expect(error != nil)
    #expect(error?.message.contains("surrogate") == true)
  }

  @Test func invalidUTF8InAStringIsRejected() {
    // 0xFF never occurs in UTF-8; 0xC3 starts a two-byte sequence that is cut short.
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0xC3, 0x5C, 0x6E, 0x22],
    ] {
      var caught: JSONSyntaxError?
      do { _ = try JSONValue(parsing: bytes) } catch { caught = error }
      #expect(caught?.reason == "invalid UTF-8 in string", "\(bytes) was accepted")
    }
  }

  // MARK: - Serialization

  @Test func serializationIsCompactWithSortedKeys() {
    let value = JSONValue.object([
      "b": .number(1), "a": .array([.bool(true), .null, .number(-2), .number(0.5)]),
      "c": .object(["z": .string("q\"uote"), "y": .bool(false)]),
    ])
    #expect(
      value.serialized == #"{"a":[true,null,-2,0.5],"b":1,"c":{"y":false,"z":"q\"uote"}}"#)
  }

  @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
    #expect(JSONValue.string("a\"b\\c\nd\re\tf").serialized == #""a\"b\\c\nd\re\tf""#)
    #expect(JSONValue.string("\u{01}\u{1F}").serialized == #""\u0001\u001f""#)
    #expect(JSONValue.string("é😀").serialized == "\"é😀\"")
  }

  /// A string with nothing to escape is copied as it is; every other is escaped byte by byte:
  /// both spell each character of the first 128 as JSON requires.
  @Test func everyASCIICharacterIsWrittenAsJSONSpellsIt() {
    for byte in UInt8(0)..<0x80 {
      let spelled: String
      switch byte {
      case UInt8(ascii: "\""): spelled = #"\""#
      case UInt8(ascii: "\\"): spelled = #"\\"#
      case 0x0A: spelled = #"\n"#
      case 0x0D: spelled = #"\r"#
      case 0x09: spelled = #"\t"#
      case 0..<0x20:
        let hex = String(byte, radix: 16)
        spelled = #"\u00"# + String(repeating: "0", count: 2 - hex.count) + hex
      default: spelled = String(UnicodeScalar(byte))
      }
      let text = "a" + String(UnicodeScalar(byte)) + "é"
      #expect(JSONValue.string(text).serialized == "\"a\(spelled)é\"", "byte \(byte)")
    }
  }

  /// An object of one member is read and written as any other: its key escaped, a repeated
  /// key's last value kept, an unfinished one refused where it breaks.
  @Test func objectsOfOneMemberReadAndWriteAsOthers() throws {
    #expect(try JSONValue(parsing: #"{"a":{"b":"c"}}"#) == .object(["a": .object(["b": "c"])]))
    #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == .object(["a": .number(2)]))
    #expect(JSONValue.object(["k\"": .string("v")]).serialized == #"{"k\"":"v"}"#)
    for (text, offset) in [(#"{"a":1"#, 6), (#"{"a":1,}"#, 7), (#"{"a" 1}"#, 5), (#"{"a":}"#, 5)] {
      #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue(parsing: text) }
      do { _ = try JSONValue(parsing: text) } catch { #expect(error.offset == offset, "\(text)") }
    }
  }

  @Test func nonFiniteNumbersSerializeAsNull() {
    #expect(JSONValue.number(.infinity).serialized == "null")
    #expect(JSONValue.number(.nan).serialized == "null")
  }

  @Test func integersPrintWithoutAFraction() {
    #expect(JSONValue.number(3).serialized == "3")
    #expect(JSONValue.number(-42).serialized == "-42")
    #expect(JSONValue.number(123_456_789_012_345).serialized == "123456789012345")
  }

  @Test func serializedTextReadsBackToTheSameValue() throws {
    let numbers: [Double] = [
      0, 1, -1, 0.1, 1.0 / 3.0, -2.5e-8, 1e-7, 1e15, 1e21, 123_456_789_012_345,
      .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi, -1.0 / 500.0,
    ]
    let value = JSONValue.object([
      "numbers": .array(numbers.map(JSONValue.number)),
      "strings": .array(
        ["", "plain", "q\"uote", "back\\slash", "\u{00}\u{01}\u{1F}\u{7F}", "é€😀", "/"].map(
          JSONValue.string)),
      "nested": .array([.object(["a": .array([.array([.null])])]), .bool(false)]),
      "key with \"quotes\"": .null,
    ])
    let text = value.serialized
    let reread = try JSONValue(parsing: text)
    #expect(reread == value)
    #expect(reread.serialized == text)
    for (index, number) in numbers.enumerated() {
      #expect(reread["numbers"]?.arrayValue?[index].numberValue?.bitPattern == number.bitPattern)
    }
  }

  // MARK: - Accessors

  @Test func accessorsReturnTheMatchingCaseOnly() throws {
    let value = try JSONValue(parsing: #"{"n": 2, "s": "t", "b": true, "a": [1], "o": {}}"#)
    #expect(value["n"]?.numberValue == 2)
    #expect(value["s"]?.stringValue == "t")
    #expect(value["b"]?.boolValue == true)
    #expect(value["a"]?.arrayValue == [.number(1)])
    #expect(value["o"]?.objectValue == [:])
    #expect(value["missing"] == nil)
    #expect(value["n"]?.stringValue == nil)
    #expect(value["s"]?.numberValue == nil)
    #expect(JSONValue.array([])["n"] == nil)
  }

  private func parseError(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try JSONValue(parsing: text)
      return nil
    } catch {
      return error
    }
  }
}
