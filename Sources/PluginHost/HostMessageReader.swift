/// Cuts a byte stream into ``HostMessage``s, refusing any message over its size limit as soon as
/// its length field arrives, before reading its payload.
///
/// The daemon reads the host's messages with one (every byte from the host is hostile), the host
/// reads the daemon's with another. Feed bytes as they come with ``append(_:)``, then take
/// whole messages with ``next()`` until it returns nil.
public struct HostMessageReader: Sendable {
  /// Why a stream cannot be read any further.
  public enum Failure: Error, Equatable, Sendable {
    /// A message declared `length` payload bytes, more than `limit` for its kind.
    case tooLarge(kind: UInt8, length: Int, limit: Int)
    /// A message shorter than its header, or of an unknown kind.
    case malformed(String)
  }

  /// The most payload bytes accepted for a message of each kind; kinds not listed are refused.
  public var payloadLimits: [HostMessage.Kind: Int]
  private var buffer: [UInt8] = []
  private var start = 0

  public init(payloadLimits: [HostMessage.Kind: Int]) {
    self.payloadLimits = payloadLimits
  }

  /// Bytes received and not yet taken as messages.
  public var bufferedBytes: Int { buffer.count - start }

  /// Adds bytes read from the stream.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole message, or nil when more bytes are needed.
  /// - Throws: ``Failure`` for a message of an unknown kind, shorter than its header, or over
  ///   its limit; the stream is then unusable.
  public mutating func next() throws(Failure) -> HostMessage? {
    let available = buffer.count - start
    let headerEnd = HostMessage.lengthBytes + HostMessage.headerBytes
    guard available >= headerEnd else {
      if available >= HostMessage.lengthBytes { try checkLength() }
      return nil
    }
    let payloadLength = try checkLength()
    guard available >= headerEnd + payloadLength else { return nil }
    let kindByte = buffer[start + HostMessage.lengthBytes]
    guard let kind = HostMessage.Kind(rawValue: kindByte) else {
      throw .malformed("unknown message kind \(kindByte)")
    }
    let status = buffer[start + HostMessage.lengthBytes + 1]
    let call = HostMessage.uint32(buffer[(start + HostMessage.lengthBytes + 2)...])
    let payloadStart = start + headerEnd
    let payload = Array(buffer[payloadStart..<payloadStart + payloadLength])
    start = payloadStart + payloadLength
    if start > 1 << 16 && start * 2 > buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    return HostMessage(kind, status: status, call: call, payload: payload)
  }

  /// The payload length of the message at the front, checked against its kind's limit (the
  /// largest limit while the kind byte has not arrived).
  @discardableResult
  private func checkLength() throws(Failure) -> Int {
    let length = Int(HostMessage.uint32(buffer[start...]))
    guard length >= HostMessage.headerBytes else {
      throw .malformed("a message of \(length) bytes is shorter than its header")
    }
    let payload = length - HostMessage.headerBytes
    let kindIndex = start + HostMessage.lengthBytes
    if kindIndex < buffer.count {
      let kindByte = buffer[kindIndex]
      guard let kind = HostMessage.Kind(rawValue: kindByte), let limit = payloadLimits[kind] else {
        throw .malformed("unexpected message kind \(kindByte)")
      }
      guard payload <= limit else {
        throw .tooLarge(kind: kindByte, length: payload, limit: limit)
      }
    } else {
      let limit = payloadLimits.values.max() ?? 0
      guard payload <= limit else { throw .tooLarge(kind: 0, length: payload, limit: limit) }
    }
    return payload
  }
}
