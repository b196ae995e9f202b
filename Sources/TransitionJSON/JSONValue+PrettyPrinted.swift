extension JSONValue {
  /// Indented JSON text for people (`transitionctl --json`): two spaces a level, `"key" : value`,
  /// object keys sorted, numbers and strings as `serialized` writes them.
  public var prettyPrinted: String {
    var sink = ByteSink(capacity: 1024)
    Self.appendPretty(self, indent: 0, to: &sink)
    return String(decoding: sink.bytes, as: UTF8.self)
  }

  private static func appendPretty(_ value: JSONValue, indent: Int, to sink: inout ByteSink) {
    func newline(_ level: Int) {
      sink.append(UInt8(ascii: "\n"))
      for _ in 0..<(level * 2) { sink.append(UInt8(ascii: " ")) }
    }
    switch value {
    case .array(let elements) where !elements.isEmpty:
      sink.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        appendPretty(element, indent: indent + 1, to: &sink)
      }
      newline(indent)
      sink.append(UInt8(ascii: "]"))
    case .object(let members) where !members.isEmpty:
      sink.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        sink.appendString(key)
        sink.append(" : ")
        appendPretty(members[key] ?? .null, indent: indent + 1, to: &sink)
      }
      newline(indent)
      sink.append(UInt8(ascii: "}"))
    default:
      sink.appendJSON(value)
    }
  }
}
