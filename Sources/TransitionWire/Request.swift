import TransitionJSON
import TransitionKit

/// One request line, parsed: its `op`, its `id` (echoed in the reply) and its members.
public struct Request: Sendable {
  public let op: String
  public let id: RequestID?
  /// The whole request object, for reading the op's fields with path-naming errors. Its
  /// `context` member is checked as JSON but not built (`null` stands for it): a `begin`
  /// reads its context once, from ``contextText``.
  public let body: JSONField
  /// The exact text of the `context` member (the last one, when it is repeated): what a
  /// `begin` decodes its context from, and hands to the animator as it came; nil without one.
  public let contextText: [UInt8]?

  /// Parses one line (without its `\n`).
  /// - Throws: `WireError` `invalid_json` for text that is not JSON, `bad_request` for JSON that
  ///   is not an object with a string `op`. The `id`, when it could be read, is in the error's
  ///   companion `partialID` so the reply can still echo it.
  public init(line: some Collection<UInt8>) throws(RequestError) {
    let value: JSONValue
    let texts: [[UInt8]?]
    do {
      (value, texts) = try JSONValue.parsing(
        line, keepingTextOf: ["id", "context"], leavingUnbuilt: ["context"])
    } catch {
      throw RequestError(id: nil, WireError(.invalidJSON, error.message))
    }
    guard case .object(let members) = value else {
      throw RequestError(id: nil, WireError(.badRequest, "a request must be a JSON object"))
    }
    if let idValue = members["id"], idValue.arrayValue != nil || idValue.objectValue != nil {
      throw RequestError(id: nil, WireError(.badRequest, "id must be a number, string or null"))
    }
    let id = members["id"].map { RequestID(value: $0, text: texts[0] ?? RequestID($0).text) }
    guard let op = members["op"]?.stringValue else {
      throw RequestError(id: id, WireError(.badRequest, "op is required and must be a string"))
    }
    self.op = op
    self.id = id
    body = JSONField(value, path: "")
    contextText = texts[1]
  }
}

/// A request that could not be parsed, with the `id` to echo when it was readable.
public struct RequestError: Error, Sendable {
  public let id: RequestID?
  public let error: WireError

  public init(id: RequestID?, _ error: WireError) {
    self.id = id
    self.error = error
  }
}
