import TransitionJSON
import TransitionKit

@testable import TransitionServer

/// A ``Peer`` that keeps what the core sends until the test reads it, as a client that reads
/// only when told: until then the bytes count as unsent (`pendingOutputBytes`).
final class FakePeer: Peer {
  let id: UInt64
  let identity: PeerIdentity?
  private(set) var isOpen = true
  /// True once closed by ``closeAfterFlush()`` rather than ``close()``.
  private(set) var closedAfterFlush = false
  private var unread: [UInt8] = []
  /// Called when the peer ends, as a transport reports it to the core.
  var onClose: ((FakePeer) -> Void)?

  init(id: UInt64, identity: PeerIdentity?) {
    self.id = id
    self.identity = identity
  }

  var pendingOutputBytes: Int { unread.count }

  func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    unread += bytes
    return true
  }

  func close() { end(flushing: false) }
  func closeAfterFlush() { end(flushing: true) }

  private func end(flushing: Bool) {
    guard isOpen else { return }
    isOpen = false
    closedAfterFlush = flushing
    onClose?(self)
  }

  /// Forgets what was sent since the last read, unparsed (for long runs).
  func dropUnread() {
    unread.removeAll(keepingCapacity: true)
  }

  /// Every line sent since the last read, parsed; the peer's output is then empty.
  func readLines() -> [JSONValue] {
    let bytes = unread
    unread = []
    return bytes.split(separator: UInt8(ascii: "\n")).map { line in
      (try? JSONValue(parsing: line))
        ?? .string("unparsable: \(String(decoding: line, as: UTF8.self))")
    }
  }
}
