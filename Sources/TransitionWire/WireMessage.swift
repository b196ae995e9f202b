import TransitionJSON
import TransitionKit

/// The non-frame lines of the protocol: replies and events (docs/protocol.md).
public enum WireMessage {
  /// `{"id":…,"ok":true,…fields}\n`; `id` is left out when the request had none.
  public static func success(id: JSONValue?, _ fields: [String: JSONValue] = [:]) -> [UInt8] {
    var members = fields
    members["ok"] = .bool(true)
    if let id { members["id"] = id }
    return line(.object(members))
  }

  /// `{"id":…,"ok":false,"error":{"code":…,"message":…}}\n`.
  public static func failure(id: JSONValue?, _ error: WireError) -> [UInt8] {
    var members: [String: JSONValue] = [
      "ok": .bool(false),
      "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)]),
    ]
    if let id { members["id"] = id }
    return line(.object(members))
  }

  /// `{"event":"complete","session":…,"finished":…}\n`.
  public static func complete(session: String, finished: Bool) -> [UInt8] {
    line(
      .object([
        "event": .string("complete"), "session": .string(session), "finished": .bool(finished),
      ]))
  }

  /// An event line: `name` in `event`, plus `fields`.
  public static func event(_ name: String, _ fields: [String: JSONValue] = [:]) -> [UInt8] {
    var members = fields
    members["event"] = .string(name)
    return line(.object(members))
  }

  /// A JSON value as one `\n`-terminated line.
  public static func line(_ value: JSONValue) -> [UInt8] {
    var sink = ByteSink(capacity: 256)
    sink.appendJSON(value)
    sink.append(UInt8(ascii: "\n"))
    return sink.bytes
  }
}
