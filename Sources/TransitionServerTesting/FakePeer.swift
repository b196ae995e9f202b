import TransitionJSON
import TransitionServer

/// A ``Peer`` that keeps what the core sends until it is read, as a client that reads only
/// when told: until then the bytes count as unsent (`pendingOutputBytes`). Output held by
/// ``holdOutput()`` cannot be read until ``flushNow()`` releases it, as on a socket.
///
/// It reports its end to ``onClose``, as a transport reports it to the core; whether the core
/// ended it (``close()``, ``closeAfterFlush()``) or the client did (``disconnect()``) is kept.
public final class FakePeer: Peer {
  public let id: UInt64
  public let identity: PeerIdentity?
  /// Whether ``holdOutput()`` holds, as the daemon's transports do; a peer that does not hold
  /// releases every line as it is queued (the `Peer` default).
  public let holdsOutput: Bool
  public private(set) var isOpen = true
  /// True once closed by ``closeAfterFlush()`` rather than ``close()``.
  public private(set) var closedAfterFlush = false
  /// True once the core ended the peer, false when ``disconnect()`` did.
  public private(set) var closedByCore = false
  /// True from ``holdOutput()`` until ``flushNow()``.
  public private(set) var isHoldingOutput = false
  /// How many times output was held.
  public private(set) var holds = 0
  /// The first write that did not end with a whole line, which the `Peer` contract forbids;
  /// nil while every write did.
  public private(set) var unterminatedWrite: String?
  /// Runs when the peer ends, whoever ends it.
  public var onClose: ((FakePeer) -> Void)?
  private var unread: [UInt8] = []
  /// How many bytes of `unread` the peer has released (the rest is held).
  private var released = 0

  /// A peer of `identity` (nil: one whose transport cannot tell).
  public init(id: UInt64, identity: PeerIdentity?, holdsOutput: Bool = true) {
    self.id = id
    self.identity = identity
    self.holdsOutput = holdsOutput
  }

  public var pendingOutputBytes: Int { unread.count }

  public func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    if bytes.last != UInt8(ascii: "\n"), unterminatedWrite == nil {
      unterminatedWrite = String(decoding: bytes.prefix(200), as: UTF8.self)
    }
    unread += bytes
    if !isHoldingOutput { released = unread.count }
    return true
  }

  public func holdOutput() {
    guard holdsOutput, isOpen, !isHoldingOutput else { return }
    isHoldingOutput = true
    holds += 1
  }

  public func flushNow() {
    isHoldingOutput = false
    released = unread.count
  }

  public func close() { end(byCore: true, flushing: false) }
  public func closeAfterFlush() { end(byCore: true, flushing: true) }

  /// The client ends the connection.
  public func disconnect() { end(byCore: false, flushing: false) }

  private func end(byCore: Bool, flushing: Bool) {
    guard isOpen else { return }
    isOpen = false
    closedByCore = byCore
    closedAfterFlush = flushing
    if flushing { flushNow() }
    onClose?(self)
  }

  /// Forgets what was released since the last read, unparsed (for long runs).
  public func dropUnread() {
    unread.removeFirst(released)
    released = 0
  }

  /// Every line released since the last read, parsed; a line that does not parse (an empty
  /// one too) is `"unparsable: <its text>"`. Held lines stay for a later read.
  public func readLines() -> [JSONValue] {
    let bytes = unread[..<released]
    unread.removeFirst(released)
    released = 0
    guard !bytes.isEmpty else { return [] }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
    return lines.map { line in
      (try? JSONValue(parsing: line))
        ?? .string("unparsable: \(String(decoding: line, as: UTF8.self))")
    }
  }
}

@available(*, unavailable) extension FakePeer: Sendable {}
