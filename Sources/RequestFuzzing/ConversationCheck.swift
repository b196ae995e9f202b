import BuiltinAnimators
import Glibc
import PluginLoader
import TransitionJSON
import TransitionServer
import TransitionServerTesting

/// The fuzzer's second check: arbitrary bytes as a conversation of three clients with the
/// real server core (`ServerCore`, the real animators, no sockets) on a clock that
/// moves only when the input says (docs/security.md, "Fuzzing").
///
/// Each line of the input is a request line from client 0, unless it starts with `@1 ` (client
/// 1, another user) or `@2 ` (client 2, the daemon's own user: an admin), `+N` (the clock moves
/// N milliseconds on, at most 2,000, firing every timer due, the clients reading between two
/// timers), or `!N` (client N disconnects and a new client N connects). The clock moves at
/// most 5 s in all. After the last line the clock moves a second on, the core shuts down, and
/// what is still scheduled runs out.
///
/// Promised: no trap; every line a client receives is a JSON object, a reply or an event; a
/// frame's `t` is finite and its progress in [0, 1]; every request line a client sends while
/// connected gets exactly one reply (unless the core closed that client); `stopping` reaches
/// every connected client at shutdown; timers do not fire without end.
public struct ConversationCheck: Sendable {
  /// The uid the core takes as its own (client 2's: an admin).
  static let daemonUID: UInt32 = 4_242
  private static let clientUIDs: [UInt32] = [1_000, 1_001, daemonUID]
  private static let totalMilliseconds = 5_000.0
  private static let maximumFirings = 200_000

  private let registry: PluginRegistry

  /// Loads the animator plugins found in `pluginDirectory` (the built `lib<Name>.so` files)
  /// and the data animators of `animatorDirectories` (`<name>.json` files).
  public init(pluginDirectory: String, animatorDirectories: [String]) {
    registry = loadFuzzPlugins(from: pluginDirectory, animatorDirectories: animatorDirectories)
  }

  /// What a conversation came to.
  public struct Outcome: Sendable {
    /// The first broken promise; nil when all held.
    public var problem: String?
    /// The frames the clients received, and the replies.
    public var frames = 0
    public var replies = 0
  }

  /// Plays `bytes` as a conversation.
  /// - Returns: a description of the first broken promise, or nil when all held.
  public func problem(with bytes: [UInt8]) -> String? {
    play(bytes).problem
  }

  /// Plays `bytes` as a conversation and tells what came of it.
  public func play(_ bytes: [UInt8]) -> Outcome {
    var outcome = Outcome()
    outcome.problem = conversationProblem(bytes, counting: &outcome)
    return outcome
  }

  private func conversationProblem(_ bytes: [UInt8], counting outcome: inout Outcome)
    -> String?
  {
    var config = ServerConfig()
    config.logLevel = .error
    let clock = FakeClock(now: 1_000)
    // Like the daemon's loop, so that the frame clock renders ahead.
    clock.timerSlack = 0.001
    let core = ServerCore(
      config: config, adminPolicy: AdminPolicy(daemonUID: Self.daemonUID, group: nil),
      animators: InProcessAnimatorSource(
        listing: { [registry] in registry.animators }, makeTimeline: registry.makeTimeline),
      fallback: BuiltinFallback(), clock: clock,
      logger: Logger(level: .error, clock: clock, sink: RecordingLogSink()), processID: getpid())
    var nextID: UInt64 = 0
    func connect(_ index: Int) -> ConversationClient {
      nextID += 1
      let uid = Self.clientUIDs[index]
      let peer = FakePeer(
        id: nextID, identity: PeerIdentity(pid: 100, uid: uid, gid: uid), holdsOutput: false)
      peer.onClose = { [unowned core] in core.peerClosed($0) }
      let client = ConversationClient(peer: peer)
      core.connect(peer)
      return client
    }
    var clients = Self.clientUIDs.indices.map(connect)
    var everyone = clients
    var moved = 0.0
    func drainAll() {
      for client in clients where client.peer.isOpen {
        client.drain()
        core.peerDrained(client.peer)
      }
    }
    func advance(milliseconds: Double) -> Bool {
      let step = min(max(milliseconds, 0), 2_000, Self.totalMilliseconds - moved)
      moved += step
      return clock.advance(
        to: clock.now + step / 1_000, maximumFirings: Self.maximumFirings, afterEach: drainAll)
    }
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      switch line.first {
      case UInt8(ascii: "+"):
        let digits = line.dropFirst().prefix(5).prefix { (48...57).contains($0) }
        let milliseconds = Double(String(decoding: digits, as: UTF8.self)) ?? 0
        guard advance(milliseconds: milliseconds) else { return "timers fire without end" }
      case UInt8(ascii: "!"):
        let index = Int((line.dropFirst().first ?? 48) &- 48) % clients.count
        clients[index].drain()
        clients[index].peer.disconnect()
        clients[index] = connect(index)
        everyone.append(clients[index])
      default:
        var index = 0
        var request = line
        if line.first == UInt8(ascii: "@"), line.count >= 3,
          let digit = line.dropFirst().first, (49...50).contains(digit)
        {
          index = Int(digit - 48)
          request = line.dropFirst(3)
        }
        let client = clients[index]
        if client.peer.isOpen { client.requests += 1 }
        core.receive(line: Array(request), from: client.peer)
        drainAll()
      }
    }
    guard advance(milliseconds: 1_000) else { return "timers fire without end" }
    for client in everyone { client.drain() }
    for client in everyone where !client.peer.closedByCore && client.replies != client.requests {
      return
        "client \(client.peer.id) sent \(client.requests) requests and got \(client.replies) replies"
    }
    outcome.frames = everyone.reduce(0) { $0 + $1.frames }
    outcome.replies = everyone.reduce(0) { $0 + $1.replies }
    let connected = clients.filter(\.peer.isOpen)
    core.shutDown(reason: "the conversation ended")
    // What is still scheduled (a dropped frame clock's last present) runs out.
    guard clock.advance(to: clock.now + 1, maximumFirings: Self.maximumFirings, afterEach: {})
    else { return "timers fire without end after shutdown" }
    for client in everyone { client.drain() }
    if let problem = everyone.lazy.compactMap(\.problem).first { return problem }
    if let missed = connected.first(where: { !$0.stopping }) {
      return "client \(missed.peer.id) did not get stopping"
    }
    return nil
  }
}
