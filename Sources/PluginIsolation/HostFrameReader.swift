/// Cuts a byte stream into ``HostFrame``s, refusing any frame over its size limit as soon as
/// its length field arrives, before reading its payload.
///
/// The daemon reads the host's frames with one (every byte from the host is hostile), the host
/// reads the daemon's with another. Feed bytes as they come with ``append(_:)``, then take
/// whole frames with ``next()`` until it returns nil.
public struct HostFrameReader: Sendable {
  /// Why a stream cannot be read any further.
  public enum Failure: Error, Equatable, Sendable {
    /// A frame declared `length` payload bytes, more than `limit` for its kind.
    case tooLarge(kind: UInt8, length: Int, limit: Int)
    /// A frame shorter than its header, or of an unknown kind.
    case malformed(String)
  }

  /// The most payload bytes accepted for a frame of each kind; kinds not listed are refused.
  public var payloadLimits: [HostFrame.Kind: Int]
  private var buffer: [UInt8] = []
  private var start = 0

  public init(payloadLimits: [HostFrame.Kind: Int]) {
    self.payloadLimits = payloadLimits
  }

  /// Bytes received and not yet taken as frames.
  public var bufferedBytes: Int { buffer.count - start }

  /// Adds bytes read from the stream.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, or nil when more bytes are needed.
  /// - Throws: ``Failure`` for a frame of an unknown kind, shorter than its header, or over
  ///   its limit; the stream is then unusable.
  public mutating func next() throws(Failure) -> HostFrame? {
    let available = buffer.count - start
    let headerEnd = HostFrame.lengthBytes + HostFrame.headerBytes
    guard available >= headerEnd else {
      if available >= HostFrame.lengthBytes { try checkLength() }
      return nil
    }
    let payloadLength = try checkLength()
    guard available >= headerEnd + payloadLength else { return nil }
    let kindByte = buffer[start + HostFrame.lengthBytes]
    guard let kind = HostFrame.Kind(rawValue: kindByte) else {
      throw .malformed("unknown frame kind \(kindByte)")
    }
    let status = buffer[start + HostFrame.lengthBytes + 1]
    let call = HostFrame.uint32(buffer[(start + HostFrame.lengthBytes + 2)...])
    let payloadStart = start + headerEnd
    let payload = Array(buffer[payloadStart..<payloadStart + payloadLength])
    start = payloadStart + payloadLength
    if start > 1 << 16 && start * 2 > buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    return HostFrame(kind, status: status, call: call, payload: payload)
  }

  /// The payload length of the frame at the front, checked against its kind's limit (the
  /// largest limit while the kind byte has not arrived).
  @discardableResult
  private func checkLength() throws(Failure) -> Int {
    let length = Int(HostFrame.uint32(buffer[start...]))
    guard length >= HostFrame.headerBytes else {
      throw .malformed("a frame of \(length) bytes is shorter than its header")
    }
    let payload = length - HostFrame.headerBytes
    let kindIndex = start + HostFrame.lengthBytes
    if kindIndex < buffer.count {
      let kindByte = buffer[kindIndex]
      guard let kind = HostFrame.Kind(rawValue: kindByte), let limit = payloadLimits[kind] else {
        throw .malformed("unexpected frame kind \(kindByte)")
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
