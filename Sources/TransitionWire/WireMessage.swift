import TransitionJSON
import TransitionKit

/// The non-frame lines of the protocol: replies and events (docs/protocol.md).
public enum WireMessage {
  /// `{"id":…,"ok":true,…fields}\n`; `id` is left out when the request had none.
  /// The id is written exactly as the request spelled it.
  public static func success(id: RequestID?, _ fields: [String: JSONValue] = [:]) -> [UInt8] {
    var members = fields
    members["ok"] = .bool(true)
    return line(members, id: id)
  }

  /// The reply to a session control op: what ``success(id:_:)`` writes for the members
  /// `session`, `state`, `progress` and, when there is one, `followed` (the same bytes, keys in
  /// sorted order), written straight, without building the members (an `update`'s reply).
  public static func controlReply(
    id: RequestID?, session: String, state: String, progress: Double, followed: String?
  ) -> [UInt8] {
    var sink = ByteSink(capacity: 128)
    sink.append(UInt8(ascii: "{"))
    if let followed {
      sink.append(#""followed":"#)
      sink.appendString(followed)
      sink.append(UInt8(ascii: ","))
    }
    if let id {
      sink.append(#""id":"#)
      sink.append(contentsOf: id.text)
      sink.append(UInt8(ascii: ","))
    }
    sink.append(#""ok":true,"progress":"#)
    sink.appendNumber(progress)
    sink.append(#","session":"#)
    sink.appendString(session)
    sink.append(#","state":"#)
    sink.appendString(state)
    sink.append("}\n")
    return sink.bytes
  }

  /// `{"id":…,"ok":false,"error":{"code":…,"message":…}}\n`.
  public static func failure(id: RequestID?, _ error: WireError) -> [UInt8] {
    let members: [String: JSONValue] = [
      "ok": .bool(false),
      "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)]),
    ]
    return line(members, id: id)
  }

  /// An object of `members` plus `id` (as its exact text), keys sorted, as one line.
  private static func line(_ members: [String: JSONValue], id: RequestID?) -> [UInt8] {
    guard let id else { return line(.object(members)) }
    var keys = members.keys.filter { $0 != "id" }
    keys.append("id")
    keys.sort()
    var sink = ByteSink(capacity: 256)
    sink.append(UInt8(ascii: "{"))
    for (index, key) in keys.enumerated() {
      if index > 0 { sink.append(UInt8(ascii: ",")) }
      sink.appendString(key)
      sink.append(UInt8(ascii: ":"))
      if key == "id" {
        sink.append(contentsOf: id.text)
      } else {
        sink.appendJSON(members[key] ?? .null)
      }
    }
    sink.append("}\n")
    return sink.bytes
  }

  /// `{"event":"complete","session":…,"finished":…}\n`, with `interruptedBy` (the id of the
  /// session that interrupted it) when there is one.
  public static func complete(
    session: String, finished: Bool, interruptedBy: String? = nil
  ) -> [UInt8] {
    var members: [String: JSONValue] = [
      "event": .string("complete"), "session": .string(session), "finished": .bool(finished),
    ]
    if let interruptedBy { members["interruptedBy"] = .string(interruptedBy) }
    return line(.object(members))
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

extension WireMessage {
  /// The success reply of a `frame` pull: `{"frame":<the frame event>,"id":…,"ok":true}`, the
  /// frame line's bytes written as they are (its trailing newline left out), members in
  /// sorted order as every reply's.
  public static func frameReply(id: RequestID?, frameLine: UnsafeRawBufferPointer) -> [UInt8] {
    var end = frameLine.count
    while end > 0, frameLine[end - 1] == UInt8(ascii: "\n") { end -= 1 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(end + 48)
    bytes.append(contentsOf: #"{"frame":"#.utf8)
    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: frameLine[0..<end]))
    if let id {
      bytes.append(contentsOf: #","id":"#.utf8)
      bytes.append(contentsOf: id.text)
    }
    bytes.append(contentsOf: ",\"ok\":true}\n".utf8)
    return bytes
  }
}
