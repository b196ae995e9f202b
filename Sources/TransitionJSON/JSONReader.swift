/// A pull reader of UTF-8 JSON text: a decoder walks a document value by value, in the order
/// of the text, without building a ``JSONValue`` tree (the timeline codec's fast path reads
/// the plugin host's timelines this way).
///
/// As strict as `JSONValue(parsing:)`, with the same nesting bound: each method reads the next
/// value (or member name) and throws `JSONSyntaxError` when the text there is not what it
/// reads. Which members an object may have, and what a repeated member means, are the
/// decoder's to decide; ``value()`` reads a whole value as `JSONValue` (duplicates: the last
/// one wins, as there).
///
/// The bytes are borrowed: the reader is valid only while its buffer is.
public struct JSONReader {
  /// What the next value is, from its first byte.
  public enum Kind: Equatable, Sendable {
    case object, array, string, number, bool, null
  }

  private var parser: JSONParser
  /// True right after `{` or `[`: the next member or element needs no comma before it.
  private var atContainerStart = false

  public init(_ bytes: UnsafeBufferPointer<UInt8>) {
    parser = JSONParser(bytes)
  }

  /// The kind of the next value, which stays unread.
  public mutating func kind() throws(JSONSyntaxError) -> Kind {
    parser.skipWhitespace()
    guard parser.index < parser.bytes.count else {
      throw parser.failure("unexpected end of input")
    }
    switch parser.bytes[parser.index] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw parser.failure("unexpected character")
    }
  }

  /// Reads the `{` that opens an object; ``nextMember()`` then reads its member names.
  public mutating func beginObject() throws(JSONSyntaxError) {
    try expect(.object, "expected an object")
    try parser.enter()
    parser.index += 1
    atContainerStart = true
  }

  /// The name of the object's next member, with its `:` read (its value comes next), or nil
  /// when the object has ended (its `}` read).
  public mutating func nextMember() throws(JSONSyntaxError) -> String? {
    guard try nextInContainer(closing: UInt8(ascii: "}"), "expected ',' or '}'") else {
      return nil
    }
    guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"")
    else { throw parser.failure("expected a member name") }
    let key = try parser.parseString()
    parser.skipWhitespace()
    guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":")
    else { throw parser.failure("expected ':'") }
    parser.index += 1
    return key
  }

  /// Reads the `[` that opens an array; ``nextElement()`` then steps through its elements.
  public mutating func beginArray() throws(JSONSyntaxError) {
    try expect(.array, "expected an array")
    try parser.enter()
    parser.index += 1
    atContainerStart = true
  }

  /// True when the array has another element (read it next); false when it has ended (its
  /// `]` read).
  public mutating func nextElement() throws(JSONSyntaxError) -> Bool {
    try nextInContainer(closing: UInt8(ascii: "]"), "expected ',' or ']'")
  }

  /// Steps to the next entry of the object or array being read: false, with `closing` read,
  /// when it has ended; otherwise true, past the `,` before any entry but the first and the
  /// whitespace after it. `separatorMessage` is the error for anything else.
  @inline(__always)
  private mutating func nextInContainer(closing: UInt8, _ separatorMessage: String)
    throws(JSONSyntaxError) -> Bool
  {
    parser.skipWhitespace()
    guard parser.index < parser.bytes.count else {
      throw parser.failure("unexpected end of input")
    }
    let first = atContainerStart
    atContainerStart = false
    if parser.bytes[parser.index] == closing {
      parser.index += 1
      parser.depth -= 1
      return false
    }
    if !first {
      guard parser.bytes[parser.index] == UInt8(ascii: ",") else {
        throw parser.failure(separatorMessage)
      }
      parser.index += 1
      parser.skipWhitespace()
    }
    return true
  }

  /// Reads a number.
  public mutating func number() throws(JSONSyntaxError) -> Double {
    try expect(.number, "expected a number")
    return try parser.parseNumber()
  }

  /// Reads a string.
  public mutating func string() throws(JSONSyntaxError) -> String {
    try expect(.string, "expected a string")
    return try parser.parseString()
  }

  /// Reads `true` or `false`.
  public mutating func bool() throws(JSONSyntaxError) -> Bool {
    try expect(.bool, "expected true or false")
    return try parser.parseValue() == .bool(true)
  }

  /// Reads `null` and returns true when it comes next; otherwise reads nothing.
  public mutating func null() throws(JSONSyntaxError) -> Bool {
    guard try kind() == .null else { return false }
    _ = try parser.parseValue()
    return true
  }

  /// Reads the next value whole.
  public mutating func value() throws(JSONSyntaxError) -> JSONValue {
    try parser.parseValue()
  }

  /// Where the next byte to read lies in the buffer: after ``kind()``, where the next value's
  /// text starts (whitespace skipped); after a read, where that value's text ended.
  public var offset: Int { parser.index }

  /// Reads past the next value, checked as any other read checks it, and returns a reader
  /// placed before it, to read it later (when what it means depends on a member that comes
  /// after it).
  public mutating func skipValue() throws(JSONSyntaxError) -> JSONReader {
    _ = try kind()
    let marked = self
    try skip()
    return marked
  }

  private mutating func skip() throws(JSONSyntaxError) {
    switch try kind() {
    case .object:
      try beginObject()
      while try nextMember() != nil { try skip() }
    case .array:
      try beginArray()
      while try nextElement() { try skip() }
    case .string: _ = try parser.parseString()
    case .number: _ = try parser.parseNumber()
    case .bool, .null: _ = try parser.parseValue()
    }
  }

  /// Checks that nothing but whitespace follows.
  public mutating func end() throws(JSONSyntaxError) {
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else {
      throw parser.failure("unexpected data after the JSON value")
    }
  }

  private mutating func expect(_ expected: Kind, _ reason: String) throws(JSONSyntaxError) {
    guard try kind() == expected else { throw parser.failure(reason) }
  }
}

@available(*, unavailable) extension JSONReader: Sendable {}
