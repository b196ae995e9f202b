/// Who is at the other end of a peer, as its transport knows it (for a Unix socket, what the
/// kernel recorded at `connect`: `SO_PEERCRED`).
public struct PeerIdentity: Equatable, Hashable, Sendable {
  /// The peer's process id.
  public let pid: Int32
  /// The peer's effective user id.
  public let uid: UInt32
  /// The peer's effective group id.
  public let gid: UInt32

  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
}

/// What the server core sees of one client, and all it may do with it: queue lines, close it,
/// and read who it is (docs/architecture.md, "The peer contract").
///
/// A transport (the daemon's Unix connections, its HTTP event streams) adapts its
/// connection to a peer and reports to the core what happens to it:
/// ``ServerCore/receive(line:from:)`` for each request line,
/// ``ServerCore/peerDrained(_:)`` when queued output fell low,
/// ``ServerCore/peerSentOverlongLine(_:)`` and, exactly once, ``ServerCore/peerClosed(_:)``
/// when the peer ends for any reason, including a call to ``close()`` or
/// ``closeAfterFlush()`` (possibly before that call returns).
///
/// When its output leaves is not the peer's to decide: a transport also conforms to
/// ``FrameStreaming/FrameOutput``, whose hold and release the frame path alone drives
/// (``ServerCore/connect(_:)``).
///
/// The core calls a peer on its own thread only; a peer is not `Sendable`.
public protocol Peer: AnyObject {
  /// Unique among the peers of one core for the core's lifetime.
  var id: UInt64 { get }
  /// Who the peer is; nil when the transport cannot tell (such a peer is never an admin).
  var identity: PeerIdentity? { get }
  /// True until the peer ends.
  var isOpen: Bool { get }
  /// Bytes queued for the peer that its transport has not sent yet.
  var pendingOutputBytes: Int { get }
  /// Queues `bytes` (one or more whole `\n`-terminated lines) for the peer. The transport
  /// sends what was queued during one loop iteration together, so the lines the core queues
  /// for a peer in one tick leave in one write.
  ///
  /// - Returns: False when the peer has ended (nothing is queued).
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool
  /// Queues `bytes`, borrowed for the call only, as ``send(_:)-([UInt8])`` does: the frame
  /// path lends the encoder's buffer here, so a transport that copies the bytes into its
  /// output buffer makes the one copy a frame needs per subscriber.
  ///
  /// - Returns: False when the peer has ended (nothing is queued).
  @discardableResult
  func send(_ bytes: UnsafeRawBufferPointer) -> Bool
  /// Ends the peer now, dropping queued output.
  func close()
  /// Ends the peer after its queued output is sent.
  func closeAfterFlush()
}

extension Peer {
  /// Copies `bytes` into an array and sends that: for peers with nothing faster.
  @discardableResult
  public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    send(Array(bytes))
  }
}
