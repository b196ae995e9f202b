/// A JSON value (RFC 8259), the one typed form of JSON in the project: requests and replies,
/// config files, layer `content`, and contexts and timelines crossing the plugin boundary.
public enum JSONValue: Equatable, Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses UTF-8 JSON text (RFC 8259), nesting at most `JSONParser.maximumDepth` deep.
  /// - Throws: `JSONSyntaxError` naming the byte offset of the first problem.
  public init(parsing bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
    self = try bytes.withContiguousBytes { buffer in
      Result { () throws(JSONSyntaxError) -> JSONValue in
        var parser = JSONParser(buffer)
        return try parser.parseDocument()
      }
    }.get()
  }

  /// Parses UTF-8 JSON text and returns, beside the value, the exact text of each top-level
  /// object member of `keys`, in their order (of the last one, when it is repeated, as the
  /// value keeps it); nil for a member the document lacks, or when it is not an object.
  ///
  /// The members of `unbuilt` (among `keys`, top-level) are checked as JSON but not built:
  /// `null` stands for each in the value, and its kept text is the one thing to read of it
  /// (a `begin`'s context, which the daemon reads once, from its text).
  public static func parsing(
    _ bytes: some Collection<UInt8>, keepingTextOf keys: [String],
    leavingUnbuilt unbuilt: [String] = []
  ) throws(JSONSyntaxError) -> (value: JSONValue, memberTexts: [[UInt8]?]) {
    try bytes.withContiguousBytes { buffer in
      Result { () throws(JSONSyntaxError) -> (JSONValue, [[UInt8]?]) in
        var parser = JSONParser(buffer)
        parser.keptMembers = keys
        parser.unbuiltMembers = unbuilt
        let value = try parser.parseDocument()
        return (value, parser.keptRanges.map { $0.map { Array(buffer[$0]) } })
      }
    }.get()
  }

  /// Parses JSON text.
  public init(parsing text: String) throws(JSONSyntaxError) {
    try self.init(parsing: Array(text.utf8))
  }

  /// Compact JSON text with object keys sorted, so that equal values print the same bytes
  /// (written by `ByteSink.appendJSON`).
  public var serialized: String {
    var sink = ByteSink(capacity: 256)
    sink.appendJSON(self)
    return String(decoding: sink.bytes, as: UTF8.self)
  }

  /// A number as JSON text (`ByteSink.appendNumber`): whole numbers without a fraction, others
  /// in the shortest form that reads back to the same Double, non-finite ones as `null`.
  public static func format(_ value: Double) -> String {
    var sink = ByteSink(capacity: 32)
    sink.appendNumber(value)
    return String(decoding: sink.bytes, as: UTF8.self)
  }
}

extension JSONValue {
  /// The member `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    if case .object(let values) = self { return values[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let values) = self { return values }
    return nil
  }

  public var objectValue: [String: JSONValue]? {
    if case .object(let values) = self { return values }
    return nil
  }
}
