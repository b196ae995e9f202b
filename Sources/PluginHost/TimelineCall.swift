/// A `timeline` call from the daemon to the host: which animator, and the context JSON.
///
/// Payload: a big-endian `u16` name length, the name (UTF-8), then the context JSON to the
/// end of the message.
public struct TimelineCall: Equatable, Sendable {
  public var animator: String
  public var contextJSON: [UInt8]

  public init(animator: String, contextJSON: [UInt8]) {
    self.animator = animator
    self.contextJSON = contextJSON
  }

  public var payload: [UInt8] {
    let name = Array(animator.utf8.prefix(Int(UInt16.max)))
    var bytes = [UInt8(truncatingIfNeeded: name.count >> 8), UInt8(truncatingIfNeeded: name.count)]
    bytes.reserveCapacity(2 + name.count + contextJSON.count)
    bytes.append(contentsOf: name)
    bytes.append(contentsOf: contextJSON)
    return bytes
  }

  /// Decodes a payload; nil when the name length runs past the end.
  public init?(payload: [UInt8]) {
    guard payload.count >= 2 else { return nil }
    let length = Int(payload[0]) << 8 | Int(payload[1])
    guard payload.count >= 2 + length else { return nil }
    animator = String(decoding: payload[2..<2 + length], as: UTF8.self)
    contextJSON = Array(payload[(2 + length)...])
  }
}
