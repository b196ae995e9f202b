import TransitionJSON
import TransitionKit

@testable import TransitionServer

/// A ``Peer`` that keeps what the core sends until the test reads it, as a client that reads
/// only when told: until then the bytes count as unsent (`pendingOutputBytes`). Output held
/// by ``holdOutput()`` cannot be read until ``flushNow()`` releases it, as on a socket.
final class FakePeer: Peer {
  let id: UInt64
  let identity: PeerIdentity?
  private(set) var isOpen = true
  /// True once closed by ``closeAfterFlush()`` rather than ``close()``.
  private(set) var closedAfterFlush = false
  private var unread: [UInt8] = []
  /// How many bytes of `unread` the peer has released (the rest is held).
  private var released = 0
  /// True from ``holdOutput()`` until ``flushNow()``.
  private(set) var isHoldingOutput = false
  /// How many times output was held, and released by ``flushNow()``.
  private(set) var holds = 0
  /// Called when the peer ends, as a transport reports it to the core.
  var onClose: ((FakePeer) -> Void)?
  /// When true, the peer closes as it is sent a frame, as a connection whose write fails (or
  /// whose reader the slow-subscriber rule drops) does in the middle of a send.
  var closesOnFrame = false

  init(id: UInt64, identity: PeerIdentity?) {
    self.id = id
    self.identity = identity
  }

  var pendingOutputBytes: Int { unread.count }

  func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    unread += bytes
    if !isHoldingOutput { released = unread.count }
    if closesOnFrame, bytes.firstRange(of: Array(#""event":"frame""#.utf8)) != nil { close() }
    return true
  }

  func holdOutput() {
    guard isOpen, !isHoldingOutput else { return }
    isHoldingOutput = true
    holds += 1
  }

  func flushNow() {
    isHoldingOutput = false
    released = unread.count
  }

  func close() { end(flushing: false) }
  func closeAfterFlush() { end(flushing: true) }

  private func end(flushing: Bool) {
    guard isOpen else { return }
    isOpen = false
    closedAfterFlush = flushing
    if flushing { flushNow() }
    onClose?(self)
  }

  /// Forgets what was released since the last read, unparsed (for long runs).
  func dropUnread() {
    unread.removeFirst(released)
    released = 0
  }

  /// Every line released since the last read, parsed (held lines stay for a later read).
  func readLines() -> [JSONValue] {
    let bytes = unread[..<released]
    unread.removeFirst(released)
    released = 0
    return bytes.split(separator: UInt8(ascii: "\n")).map { line in
      (try? JSONValue(parsing: line))
        ?? .string("unparsable: \(String(decoding: line, as: UTF8.self))")
    }
  }
}
