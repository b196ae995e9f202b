/// The clients whose output a frame clock tick rendered ahead of its deadline holds back
/// until that deadline (``Peer/holdOutput()``), so that its frames leave when they are due,
/// not when they were ready.
///
/// A client is listed once per tick however many of its streams rendered; ``release()``
/// has every listed client send what it holds, once, and empties the list.
final class HeldOutput {
  /// Which holder listed a client in which tick (``Client/holdMark``).
  struct Mark: Equatable {
    let holder: ObjectIdentifier
    let tick: UInt64
  }

  private var clients: [Client] = []
  /// Starts anywhere, so that a holder made at the address of one gone before does not take
  /// a client's old mark for its own.
  private var tick = UInt64.random(in: 0...UInt64.max)
  private var mark: Mark { Mark(holder: ObjectIdentifier(self), tick: tick) }

  /// Starts a new tick's list (after ``release()``).
  func beginTick() {
    tick &+= 1
  }

  /// Holds `client`'s output until ``release()``; the second call in a tick does nothing.
  func hold(_ client: Client) {
    let mark = mark
    guard client.holdMark != mark else { return }
    client.holdMark = mark
    client.holdOutput()
    clients.append(client)
  }

  /// Sends every held client's output now.
  func release() {
    let released = clients
    clients = []
    for client in released { client.flushNow() }
  }
}

@available(*, unavailable) extension HeldOutput: Sendable {}
