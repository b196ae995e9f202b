/// One message between the daemon and its plugin host process (docs/plugins.md, "The host
/// protocol"): a length-prefixed message of bytes.
///
/// ```
/// u32 length   big-endian: the bytes after this field (6 + payload)
/// u8  kind     HostMessage.Kind
/// u8  status   HostMessage.Status for timeline answers, 0 otherwise
/// u32 call     big-endian: the call this message asks or answers (0 for scans)
/// …   payload  length − 6 bytes
/// ```
public struct HostMessage: Equatable, Sendable {
  /// What a message is.
  public enum Kind: UInt8, Sendable, CaseIterable {
    /// Daemon → host: load the files handed over since the last scan (payload: ``ScanRequest``
    /// JSON, which lists them in the order of their ``file`` messages).
    case scan = 1
    /// Daemon → host: make a timeline (payload: ``TimelineCall``).
    case timeline = 2
    /// Host → daemon: the host is about to open this library (payload: a big-endian `u32`, the
    /// library's index in the scan's file list; the daemon names it from its own list).
    case loading = 3
    /// Host → daemon: the scan is over (payload: ``ScanReport`` JSON).
    case scanned = 4
    /// Host → daemon: the answer to a `timeline` call (status, payload: timeline or message).
    case answer = 5
    /// Daemon → host: one open file for the next scan, passed with this message's first byte
    /// (`SCM_RIGHTS`); no payload.
    case file = 6
  }

  /// The status of an ``Kind/answer``: the three outcomes of `make_timeline`.
  public enum Status: UInt8, Sendable {
    /// The payload is the timeline JSON.
    case timeline = 0
    /// The animator declined; no payload.
    case declined = 1
    /// The animator failed; the payload is its message.
    case failed = 2
    /// The payload is a timeline the host built itself, in its binary form
    /// (`Timeline.binaryEncoded`).
    case binaryTimeline = 3
  }

  /// The bytes of the header after the length field: kind, status, call.
  public static let headerBytes = 6
  /// The bytes of the length field.
  public static let lengthBytes = 4

  public var kind: Kind
  public var status: UInt8
  public var call: UInt32
  public var payload: [UInt8]

  public init(_ kind: Kind, status: UInt8 = 0, call: UInt32 = 0, payload: [UInt8] = []) {
    self.kind = kind
    self.status = status
    self.call = call
    self.payload = payload
  }

  /// The message on the wire: length, header, payload.
  public var encoded: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.lengthBytes + Self.headerBytes + payload.count)
    Self.append(UInt32(Self.headerBytes + payload.count), to: &bytes)
    bytes.append(kind.rawValue)
    bytes.append(status)
    Self.append(call, to: &bytes)
    bytes.append(contentsOf: payload)
    return bytes
  }

  /// Appends `value` as four bytes, most significant first (the protocol's byte order).
  public static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
  }

  static func uint32(_ bytes: some Collection<UInt8>) -> UInt32 {
    bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
  }
}
