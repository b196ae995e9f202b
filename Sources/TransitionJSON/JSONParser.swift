/// A strict JSON parser over UTF-8 bytes, bounded in nesting depth.
struct JSONParser {
  /// Deeper nesting is refused rather than risking the stack.
  static let maximumDepth = 64

  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var depth = 0
  /// The top-level members whose text `keptRanges` records.
  var keptMembers: [String] = [] {
    didSet { keptRanges = Array(repeating: nil, count: keptMembers.count) }
  }
  /// Where the value of the last top-level member of each of `keptMembers` lies in the bytes.
  private(set) var keptRanges: [Range<Int>?] = []
  /// The top-level members whose value is checked but not built: `null` stands in the
  /// parsed value, and their text (kept through `keptMembers`) is what a reader reads.
  var unbuiltMembers: [String] = []
  /// When set, the byte offset where each value starts is recorded by its JSON pointer
  /// (RFC 6901) in `offsets`, and a member repeated in one object is refused.
  var recordsOffsets = false
  private(set) var offsets: [String: Int] = [:]
  /// The members of the objects being read, innermost last (``parseObject()``).
  private var pendingMembers: [(String, JSONValue)] = []
  /// The JSON pointer of the value being parsed, while `recordsOffsets`.
  private var pointer = ""

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// One value, surrounded by nothing but whitespace.
  mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
    return value
  }

  func failure(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(reason: reason, offset: index)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw failure("unexpected end of input") }
    if recordsOffsets { offsets[pointer] = index }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw failure("unexpected character")
    }
  }

  mutating func parseLiteral(_ word: StaticString, _ value: JSONValue)
    throws(JSONSyntaxError)
    -> JSONValue
  {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw failure("unexpected end of input") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw failure("unexpected character")
    }
    index += count
    return value
  }

  mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw failure("nesting deeper than \(Self.maximumDepth)")
    }
  }

  /// Reads the opening bracket at `index`, within the nesting bound, and the whitespace
  /// after it: true when `close` follows at once (an empty container, read whole and left).
  private mutating func openContainer(closedBy close: UInt8) throws(JSONSyntaxError) -> Bool {
    try enter()
    index += 1
    skipWhitespace()
    guard index < bytes.count, bytes[index] == close else { return false }
    index += 1
    depth -= 1
    return true
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    if try openContainer(closedBy: UInt8(ascii: "}")) { return .object([:]) }
    guard !recordsOffsets else { return try parseObjectRecordingOffsets() }
    let key = try parseMemberName()
    let value = try parseMemberValue(of: key)
    // An object of one member (a layer's `content`, most often) is made at once.
    if try parseEnd(closedBy: UInt8(ascii: "}")) { return .object([key: value]) }
    // The members are gathered on a stack shared by the objects being read (an inner
    // object's above its parent's), then made one dictionary of the size they need: no
    // dictionary grows and rehashes member by member.
    let base = pendingMembers.count
    defer { pendingMembers.removeSubrange(base...) }
    pendingMembers.append((key, value))
    repeat {
      let key = try parseMemberName()
      let value = try parseMemberValue(of: key)
      pendingMembers.append((key, value))
    } while try !parseEnd(closedBy: UInt8(ascii: "}"))
    var members = [String: JSONValue](minimumCapacity: pendingMembers.count - base)
    // In order, so that a repeated member's last value is the one kept.
    for (key, value) in pendingMembers[base...] { members[key] = value }
    return .object(members)
  }

  /// ``parseObject()`` while ``recordsOffsets``: each member's offset recorded by its JSON
  /// pointer, and a repeated member refused. Called past a `{` that a member follows.
  private mutating func parseObjectRecordingOffsets() throws(JSONSyntaxError) -> JSONValue {
    var members: [String: JSONValue] = [:]
    repeat {
      let key = try parseMemberName()
      let valueStart = index
      guard members[key] == nil else { throw failure("member \"\(key)\" repeated") }
      let parent = pointer
      pointer += "/" + JSONSourceMap.escape(key)
      members[key] = try parseValue()
      pointer = parent
      keepText(of: key, from: valueStart)
    } while try !parseEnd(closedBy: UInt8(ascii: "}"))
    return .object(members)
  }

  /// Reads a member's name and the `:` after it, and the whitespace before its value.
  private mutating func parseMemberName() throws(JSONSyntaxError) -> String {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw failure("expected a member name")
    }
    let key = try parseString()
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw failure("expected ':'")
    }
    index += 1
    skipWhitespace()
    return key
  }

  /// Reads what follows a member's value or an element: a `,` (false: another comes) or the
  /// `closer` (`}` or `]`) that ends the object or array (true).
  private mutating func parseEnd(closedBy closer: UInt8) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw failure("unexpected end of input") }
    if bytes[index] == UInt8(ascii: ",") {
      index += 1
      return false
    }
    guard bytes[index] == closer else {
      throw failure("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
    }
    index += 1
    depth -= 1
    return true
  }

  /// The value of the member `key` of the object being read: parsed, or, for a top-level
  /// member of ``unbuiltMembers``, checked by ``skipValue()`` and left `null`; its text is kept
  /// when it is one of ``keptMembers``.
  private mutating func parseMemberValue(of key: String) throws(JSONSyntaxError) -> JSONValue {
    let valueStart = index
    let value: JSONValue
    if depth == 1, unbuiltMembers.contains(key) {
      try skipValue()
      value = .null
    } else {
      value = try parseValue()
    }
    keepText(of: key, from: valueStart)
    return value
  }

  /// Reads past one value without building it, checked as ``parseValue()`` checks it: the same
  /// syntax errors at the same offsets, the same nesting bound.
  mutating func skipValue() throws(JSONSyntaxError) {
    skipWhitespace()
    guard index < bytes.count else { throw failure("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      if try openContainer(closedBy: UInt8(ascii: "}")) { return }
      repeat {
        _ = try parseMemberName()
        try skipValue()
      } while try !parseEnd(closedBy: UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      if try openContainer(closedBy: UInt8(ascii: "]")) { return }
      repeat { try skipValue() } while try !parseEnd(closedBy: UInt8(ascii: "]"))
    case UInt8(ascii: "\""): _ = try parseString()
    default: _ = try parseValue()
    }
  }

  /// Records where the value of a top-level member of ``keptMembers`` lies, which ends here.
  private mutating func keepText(of key: String, from start: Int) {
    if depth == 1, let kept = keptMembers.firstIndex(of: key) { keptRanges[kept] = start..<index }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    if try openContainer(closedBy: UInt8(ascii: "]")) { return .array([]) }
    var elements: [JSONValue] = []
    while true {
      if recordsOffsets {
        let parent = pointer
        pointer += "/\(elements.count)"
        elements.append(try parseValue())
        pointer = parent
      } else {
        elements.append(try parseValue())
      }
      if try parseEnd(closedBy: UInt8(ascii: "]")) { return .array(elements) }
    }
  }

  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { throw failure("malformed number") }
    // RFC 8259: `int = zero / ( digit1-9 *DIGIT )`.
    guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
      index = integerStart + 1
      throw failure("leading zero in number")
    }
    var fractionDigits = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      fractionDigits = digits()
      guard fractionDigits > 0 else { throw failure("malformed number") }
    }
    let mantissaEnd = index
    var exponentStart: Int?
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      exponentStart = index
      guard digits() > 0 else { throw failure("malformed number") }
    }
    if let value = exactValue(
      negative: start != integerStart, integer: integerStart, fractionDigits: fractionDigits,
      mantissaEnd: mantissaEnd, exponentStart: exponentStart)
    {
      return value
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw failure("number out of range")
    }
    return value
  }

  /// The number whose digits were just read, without a text round trip, when it can be
  /// computed exactly: its digits (at most 15, so below 2^53) as an integer, then one
  /// multiplication or division by a power of ten of at most 10^22 (exact as a Double), which
  /// IEEE arithmetic rounds correctly (Clinger's fast path). Nil otherwise.
  @inline(__always)
  private func exactValue(
    negative: Bool, integer: Int, fractionDigits: Int, mantissaEnd: Int, exponentStart: Int?
  ) -> Double? {
    let digitCount = mantissaEnd - integer - (fractionDigits > 0 ? 1 : 0)
    guard digitCount <= 15 else { return nil }
    var exponent = -fractionDigits
    if let exponentStart {
      var given = 0
      var offset = exponentStart
      while offset < index {
        given = given * 10 + Int(bytes[offset] &- 48)
        // Past the range of the fast path either way.
        if given > 400 { return nil }
        offset += 1
      }
      exponent += bytes[exponentStart - 1] == UInt8(ascii: "-") ? -given : given
    }
    guard exponent >= -22, exponent <= 22 else { return nil }
    var mantissa = 0
    for offset in integer..<mantissaEnd where bytes[offset] != UInt8(ascii: ".") {
      mantissa = mantissa * 10 + Int(bytes[offset] &- 48)
    }
    var value = Double(mantissa)
    if exponent < 0 {
      value /= Self.powersOfTen[-exponent]
    } else if exponent > 0 {
      value *= Self.powersOfTen[exponent]
    }
    // A product past the largest Double is not finite: the text round trip reports it.
    guard value.isFinite else { return nil }
    return negative ? -value : value
  }

  /// 10^0 … 10^22, every one exact as a Double.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Skips ASCII digits; returns how many.
  private mutating func digits() -> Int {
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
    {
      index += 1
    }
    return index - start
  }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    // Fast path: a string without escapes or control characters is one UTF-8 run.
    var end = index
    var bits: UInt8 = 0
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
      bytes[end] >= 0x20
    {
      bits |= bytes[end]
      end += 1
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      if bits < 0x80 {
        // ASCII is valid UTF-8 as it is: no validation (and no generic call) needed.
        let string = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        index = end + 1
        return string
      }
      guard
        let string = String(
          validating: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
      else {
        index = end
        throw failure("invalid UTF-8 in string")
      }
      index = end + 1
      return string
    }
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun(_ end: Int) -> Bool {
      guard end > runStart else { return true }
      guard
        let run = String(
          validating: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self)
      else { return false }
      scalars.append(contentsOf: run.unicodeScalars)
      return true
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        guard flushRun(index) else { throw failure("invalid UTF-8 in string") }
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw failure("control character in string") }
      if byte == UInt8(ascii: "\\") {
        guard flushRun(index) else { throw failure("invalid UTF-8 in string") }
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
        default: throw failure("invalid escape")
        }
        runStart = index
        continue
      }
      index += 1
    }
    throw failure("unterminated string")
  }

  private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let first = try hex4()
    if (0xD800..<0xDC00).contains(first) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw failure("unpaired surrogate") }
      index += 2
      let second = try hex4()
      guard (0xDC00..<0xE000).contains(second),
        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
      else { throw failure("unpaired surrogate") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else { throw failure("unpaired surrogate") }
    return scalar
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw failure("unexpected end of input") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
      default: throw failure("invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }
}
