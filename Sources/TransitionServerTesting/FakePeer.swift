import FrameStreaming
import LineTransport
import TransitionJSON
import TransitionServer

/// A ``Peer`` that keeps what the core sends until it is read, as a client that reads only
/// when told: until then the bytes count as unsent (`pendingOutputBytes`). Output held by
/// ``holdOutput()`` cannot be read until ``flush()`` or ``flushNow()`` releases it, as on a
/// socket: the same `OutputBatch` rule as the daemon's transports, each send being a loop
/// iteration of its own.
///
/// It reports its end to ``onClose``, as a transport reports it to the core; whether the core
/// ended it (``close()``, ``closeAfterFlush()``) or the client did (``disconnect()``) is kept.
public final class FakePeer: Peer, FrameOutput {
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
  /// True from ``holdOutput()`` until ``flush()`` or ``flushNow()``.
  public var isHoldingOutput: Bool { output.isHolding }
  /// How many times output was held.
  public private(set) var holds = 0
  /// The first write that did not end with a whole line, which the `Peer` contract forbids;
  /// nil while every write did.
  public private(set) var unterminatedWrite: String?
  /// Runs when the peer ends, whoever ends it.
  public var onClose: ((FakePeer) -> Void)?
  /// When true, the connection ends (``disconnect()``) as the peer is sent a frame, as one whose
  /// write fails does in the middle of a send.
  public var closesOnFrame = false
  /// What was sent and not held: what a read returns.
  private var released: [UInt8] = []
  /// What was sent and is held (or not yet released).
  private var output = OutputBatch()

  /// A peer of `identity` (nil: one whose transport cannot tell).
  public init(id: UInt64, identity: PeerIdentity?, holdsOutput: Bool = true) {
    self.id = id
    self.identity = identity
    self.holdsOutput = holdsOutput
  }

  public var pendingOutputBytes: Int { released.count + output.count }

  public func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    if bytes.last != UInt8(ascii: "\n"), unterminatedWrite == nil {
      unterminatedWrite = String(decoding: bytes.prefix(200), as: UTF8.self)
    }
    if output.write(bytes) { releaseAtTheEndOfTheTurn() }
    if closesOnFrame, bytes.firstRange(of: Array(#""event":"frame""#.utf8)) != nil {
      disconnect()
    }
    return true
  }

  public func holdOutput() {
    guard holdsOutput, isOpen, !isHoldingOutput else { return }
    output.hold()
    holds += 1
  }

  public func flush() {
    if output.flush() { releaseAtTheEndOfTheTurn() }
  }

  public func flushNow() {
    if output.flushNow() { released += output.takeAll() }
  }

  /// The end of the turn comes at once: what the batch lets leave is released.
  private func releaseAtTheEndOfTheTurn() {
    if output.endOfTurn() { released += output.takeAll() }
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
    released = []
  }

  /// Every byte released since the last read, as sent (for tests that compare bytes).
  public func readBytes() -> [UInt8] {
    defer { released = [] }
    return released
  }

  /// Every line released since the last read, parsed; a line that does not parse (an empty
  /// one too) is `"unparsable: <its text>"`. Held lines stay for a later read.
  public func readLines() -> [JSONValue] {
    let bytes = released[...]
    released = []
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
