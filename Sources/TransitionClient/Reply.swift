import TransitionJSON

/// The daemon's answer to one request: a line carrying `ok` (and the request's `id`).
///
/// A reply with `ok: false` carries ``errorCode`` and ``errorMessage``; ``DaemonClient/request(_:timeout:)``
/// turns it into a ``ClientError/Code/protocolError``. ``payload`` is the reply without its
/// `ok` and `id`, the part `transitionctl --json` prints.
public struct Reply: Sendable {
  /// The echoed request `id`, when the daemon echoed an integer one.
  public let id: Int?
  /// Whether the request succeeded.
  public let ok: Bool
  /// Every member of the reply.
  public let fields: [String: JSONValue]
  /// The line exactly as received, without its `\n`.
  public let line: String

  /// The daemon's error code (`unknown_session`, …) when ``ok`` is false.
  public var errorCode: String? { fields["error"]?["code"]?.stringValue }
  /// The daemon's error message when ``ok`` is false.
  public var errorMessage: String? { fields["error"]?["message"]?.stringValue }

  /// The reply's fields without `ok` and `id`.
  public var payload: [String: JSONValue] {
    fields.filter { $0.key != "ok" && $0.key != "id" }
  }

  /// Typed access to the reply's fields.
  public var object: JSONObject { JSONObject(fields, context: "reply") }

  /// Creates a reply from its decoded fields and raw line.
  ///
  /// - Throws: ``ClientError/Code/malformed`` when `ok` is not a boolean.
  public init(fields: [String: JSONValue], line: String) throws(ClientError) {
    guard let ok = fields["ok"]?.boolValue else {
      throw ClientError(.malformed, "reply.ok is missing or not a boolean: \(line)")
    }
    self.ok = ok
    self.fields = fields
    self.line = line
    self.id = fields["id"]?.numberValue.flatMap { Int(exactly: $0) }
  }

  /// Throws the reply's error when ``ok`` is false.
  ///
  /// - Throws: ``ClientError/Code/protocolError`` with the daemon's code and message.
  public func checked() throws(ClientError) -> Reply {
    guard ok else {
      throw ClientError.protocolError(
        code: errorCode ?? "unknown_error",
        message: errorMessage ?? "the daemon refused the request")
    }
    return self
  }
}
