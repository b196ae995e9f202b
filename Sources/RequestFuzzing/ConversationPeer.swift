import TransitionJSON
import TransitionServer

/// One client of ``ConversationCheck``: a reader that takes each line as it is sent and checks
/// it, and drains when the conversation says.
final class ConversationPeer: Peer {
  let id: UInt64
  let identity: PeerIdentity?
  private(set) var isOpen = true
  /// True once the core closed the peer (a limit, a slow reader), not the conversation.
  private(set) var closedByCore = false
  /// Bytes sent since the last ``drain()``.
  private(set) var pendingOutputBytes = 0
  /// Request lines the peer sent while open, and replies it got.
  var requests = 0
  private(set) var replies = 0
  private(set) var frames = 0
  private(set) var stopping = false
  /// The first broken promise in what the peer received.
  private(set) var problem: String?
  /// Reports the end of the peer to the core, as a transport does.
  var onClose: ((ConversationPeer) -> Void)?

  init(id: UInt64, identity: PeerIdentity) {
    self.id = id
    self.identity = identity
  }

  func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    pendingOutputBytes += bytes.count
    guard bytes.last == UInt8(ascii: "\n") else {
      note("a write does not end a line: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
      return true
    }
    for line in bytes.dropLast().split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    {
      check(line)
    }
    return true
  }

  func close() { end(byCore: true) }
  func closeAfterFlush() { end(byCore: true) }

  /// The conversation ends the peer (a client that disconnects).
  func disconnect() { end(byCore: false) }

  /// The peer read everything sent so far.
  func drain() { pendingOutputBytes = 0 }

  private func end(byCore: Bool) {
    guard isOpen else { return }
    isOpen = false
    closedByCore = byCore
    onClose?(self)
  }

  private func note(_ text: String) {
    if problem == nil { problem = "client \(id): \(text)" }
  }

  /// One received line: JSON; a reply (`ok`) or an event; a frame's numbers finite, its
  /// progress in [0, 1].
  private func check(_ line: ArraySlice<UInt8>) {
    guard let value = try? JSONValue(parsing: line), let object = value.objectValue else {
      return note(
        "a line is not a JSON object: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }
    if object["ok"] != nil {
      replies += 1
      return
    }
    switch object["event"]?.stringValue {
    case "frame":
      guard let progress = object["progress"]?.numberValue, (0...1).contains(progress),
        object["t"]?.numberValue?.isFinite == true, object["seq"]?.numberValue != nil,
        object["layers"]?.arrayValue != nil
      else { return note("a frame lacks its fields: \(value.serialized.prefix(300))") }
      frames += 1
    case "stopping": stopping = true
    case "begin", "complete": break
    default: note("a line is neither a reply nor an event: \(value.serialized.prefix(300))")
    }
  }
}
