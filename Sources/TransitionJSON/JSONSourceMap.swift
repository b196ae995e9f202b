/// Where the values of one JSON document lie in its text: for error messages that point at a
/// line and column (`file:line:column: /json/pointer: message`), as editors and compilers do.
public struct JSONSourceMap: Sendable {
  /// The byte offset at which each value starts, by its JSON pointer (RFC 6901); the root is
  /// `""`.
  public let offsets: [String: Int]
  /// The byte offset at which each line starts; line 1 starts at 0.
  private let lineStarts: [Int]
  /// The text, kept to count columns in characters.
  private let text: [UInt8]

  init(text: [UInt8], offsets: [String: Int]) {
    self.text = text
    self.offsets = offsets
    var starts = [0]
    for (offset, byte) in text.enumerated() where byte == 0x0A { starts.append(offset + 1) }
    lineStarts = starts
  }

  /// A map of `text` with no values recorded, to place a syntax error's offset.
  public init(text: some Collection<UInt8>) {
    self.init(text: Array(text), offsets: [:])
  }

  /// The line and column, both from 1, of byte `offset`; columns count characters (Unicode
  /// scalars), a tab as one.
  public func location(ofOffset offset: Int) -> (line: Int, column: Int) {
    let offset = max(0, min(offset, text.count))
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    var column = 1
    for byte in text[lineStarts[low]..<offset] where byte & 0xC0 != 0x80 { column += 1 }
    return (low + 1, column)
  }

  /// The line and column of the value at `pointer`, or of its nearest recorded ancestor (a
  /// member that is missing is reported where its object starts).
  public func location(of pointer: String) -> (line: Int, column: Int) {
    var pointer = pointer
    while true {
      if let offset = offsets[pointer] { return location(ofOffset: offset) }
      guard let slash = pointer.lastIndex(of: "/") else { return (1, 1) }
      pointer = String(pointer[..<slash])
    }
  }

  /// `token` escaped as one reference token of a JSON pointer (`~` → `~0`, `/` → `~1`).
  public static func escape(_ token: String) -> String {
    guard token.contains("~") || token.contains("/") else { return token }
    var escaped = ""
    for character in token {
      switch character {
      case "~": escaped += "~0"
      case "/": escaped += "~1"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}

extension JSONValue {
  /// Parses UTF-8 JSON text as `init(parsing:)` does, but refuses a member repeated in one
  /// object, and returns where each value lies: for documents people write by hand.
  /// - Throws: `JSONSyntaxError` naming the byte offset of the first problem
  ///   (`JSONSourceMap(text:)` turns it into a line and column).
  public static func parsingWithSourceMap(_ bytes: some Collection<UInt8>)
    throws(JSONSyntaxError) -> (value: JSONValue, map: JSONSourceMap)
  {
    let array = Array(bytes)
    let (value, offsets) = try array.withUnsafeBufferPointer {
      buffer throws(JSONSyntaxError) in
      var parser = JSONParser(buffer)
      parser.recordsOffsets = true
      let value = try parser.parseDocument()
      return (value, parser.offsets)
    }
    return (value, JSONSourceMap(text: array, offsets: offsets))
  }
}
