import TransitionJSON
import TransitionServer
import TransitionServerTesting

/// One client of ``ConversationCheck``: a ``FakePeer`` that releases every line as it is
/// queued, and a reader that checks each line it reads and counts requests and replies.
final class ConversationClient {
  let peer: FakePeer
  /// Request lines the client sent while connected, and replies it got.
  var requests = 0
  private(set) var replies = 0
  private(set) var frames = 0
  private(set) var stopping = false
  /// The first broken promise in what the client received.
  private(set) var problem: String?

  init(peer: FakePeer) {
    self.peer = peer
  }

  /// Reads and checks every line sent so far: the peer has drained.
  func drain() {
    if let write = peer.unterminatedWrite { note("a write does not end a line: \(write)") }
    for line in peer.readLines() { check(line) }
  }

  private func note(_ text: String) {
    if problem == nil { problem = "client \(peer.id): \(text)" }
  }

  /// One received line: a JSON object; a reply (`ok`) or an event; a frame's numbers finite,
  /// its progress in [0, 1].
  private func check(_ value: JSONValue) {
    guard let object = value.objectValue else {
      return note("a line is not a JSON object: \(value.serialized.prefix(200))")
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

@available(*, unavailable) extension ConversationClient: Sendable {}
