/// Cuts a byte stream into ``HostMessage``s, refusing any message over its size limit as soon as
/// its length field and its kind arrive, before reading its payload.
///
/// The verdict on a stream never depends on how its bytes were cut into reads: a length is
/// judged only with its kind, so an oversized answer is ``Failure/tooLarge(kind:length:limit:)``
/// of an answer whether its first read ended after the length or after the payload (the
/// fuzzer's host-message check found the other way round).
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

  /// The limits the daemon reads its plugin host's messages with: a library path of 4 KiB, a
  /// scan report of 4 MiB, a timeline answer of `maxTimelineBytes` (`limits.maxTimelineBytes`);
  /// the daemon's own kinds (`scan`, `timeline`) are refused from the host.
  public static func fromHost(maxTimelineBytes: Int) -> [HostMessage.Kind: Int] {
    [.loading: 4096, .scanned: 4 << 20, .answer: maxTimelineBytes]
  }

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
      if available > HostMessage.lengthBytes { try checkLength() }
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

  /// The payload length of the message at the front, checked against its kind's limit; its
  /// length field and its kind byte have arrived.
  @discardableResult
  private func checkLength() throws(Failure) -> Int {
    let length = Int(HostMessage.uint32(buffer[start...]))
    guard length >= HostMessage.headerBytes else {
      throw .malformed("a message of \(length) bytes is shorter than its header")
    }
    let payload = length - HostMessage.headerBytes
    let kindByte = buffer[start + HostMessage.lengthBytes]
    guard let kind = HostMessage.Kind(rawValue: kindByte), let limit = payloadLimits[kind] else {
      throw .malformed("unexpected message kind \(kindByte)")
    }
    guard payload <= limit else {
      throw .tooLarge(kind: kindByte, length: payload, limit: limit)
    }
    return payload
  }
}
