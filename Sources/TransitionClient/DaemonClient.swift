import Foundation
import Glibc
import TransitionJSON
import TransitionWire

/// A blocking connection to transitiond over its Unix socket.
///
/// Requests are JSON objects; each gets an auto-incrementing integer `id`, and
/// ``reply(to:timeout:)`` waits for the reply carrying that id. Events that arrive while a
/// reply is awaited are queued in order for ``nextEvent(timeout:)``; replies to other ids are
/// kept for their own callers. A `DaemonClient` is not thread-safe: use it from one thread.
///
/// When the daemon goes away (it stops, restarts, or the connection breaks) reads and writes
/// throw ``ClientError/Code/closed``, or ``nextEvent(timeout:)`` hands out ``Event/stopping``
/// first. ``reconnect(backoff:orReadable:)`` then connects again to the same path, trying at
/// the growing intervals of a ``ReconnectBackoff``: the new connection starts afresh, so the
/// caller subscribes again (sessions do not survive a restart of the daemon).
///
/// ```swift
/// let client = try DaemonClient(path: DaemonClient.defaultPath())
/// let started = try client.begin(context: scene)
/// _ = try client.subscribe(session: started.session, clock: .virtual)
/// while case .frame(let frame) = try client.nextEvent(timeout: .seconds(5)) { print(frame.line) }
/// ```
public final class DaemonClient {
  /// The socket path this client connected to.
  public let path: String
  /// How long ``request(_:timeout:)`` and the typed operations wait for a reply by default.
  public var defaultTimeout: Duration = .seconds(10)

  private var connection: SocketConnection
  private var nextID = 1
  private var queuedEvents: [Event] = []
  /// Rebuilds the frames of delta subscriptions, so that every ``FrameEvent`` is a full frame.
  private var deltaApplier = FrameDeltaApplier()
  private var queuedReplies: [Reply] = []

  /// Connects to the daemon's socket at `path`.
  ///
  /// - Throws: ``ClientError/Code/connectFailed`` naming `path` when the socket is missing,
  ///   refuses, or cannot be opened.
  public init(path: String) throws(ClientError) {
    self.path = path
    connection = try SocketConnection(path: path)
  }

  /// Closes the connection; the daemon drops this client's subscriptions.
  public func close() { connection.close() }

  /// Drops the connection and connects again to ``path``, waiting between attempts as
  /// `backoff` says (the first attempt is made at once).
  ///
  /// Nothing of the old connection survives: its subscriptions (subscribe again), its queued
  /// events and replies, and the state of its delta frames; request ids go on from where they
  /// were.
  /// - Parameter others: descriptors (a signal's pipe) whose becoming readable stops the
  ///   waiting between attempts.
  /// - Returns: true once connected, false when one of `others` became readable first.
  /// - Throws: ``ClientError/Code/connectFailed`` (the last attempt's) when `backoff` gives up.
  @discardableResult
  public func reconnect(
    backoff: ReconnectBackoff = ReconnectBackoff(), orReadable others: [Int32] = []
  )
    throws(ClientError) -> Bool
  {
    connection.close()
    queuedEvents = []
    queuedReplies = []
    deltaApplier = FrameDeltaApplier()
    let start = ContinuousClock.now
    var attempt = 0
    while true {
      do {
        connection = try SocketConnection(path: path)
        return true
      } catch {
        guard
          let delay = backoff.delay(
            afterFailedAttempt: attempt, elapsed: ContinuousClock.now - start)
        else { throw error }
        attempt += 1
        if SocketConnection.waitForAny(of: others, timeout: delay) { return false }
      }
    }
  }

  // MARK: Requests and replies

  /// Sends `request` with a fresh integer `id` (replacing any `id` it had).
  ///
  /// - Returns: the id to pass to ``reply(to:timeout:)``.
  /// - Throws: ``ClientError/Code/malformed`` when `request` holds a number JSON cannot carry
  ///   (NaN or infinite), ``ClientError/Code/closed`` when the daemon has gone.
  @discardableResult
  public func send(_ request: [String: JSONValue]) throws(ClientError) -> Int {
    let id = nextID
    nextID += 1
    var message = request
    message["id"] = .number(Double(id))
    guard Self.isFinite(.object(message)) else {
      throw ClientError(.malformed, "the request is not encodable as JSON: a number is not finite")
    }
    var sink = ByteSink(capacity: 256)
    sink.appendJSON(.object(message))
    sink.append(UInt8(ascii: "\n"))
    try connection.write(sink.bytes)
    return id
  }

  /// Whether every number in `value` is finite (JSON has no NaN or infinity).
  private static func isFinite(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let number): number.isFinite
    case .array(let elements): elements.allSatisfy(isFinite)
    case .object(let members): members.values.allSatisfy(isFinite)
    case .null, .bool, .string: true
    }
  }

  /// Sends one raw line, exactly as given (a `\n` is appended when missing).
  ///
  /// For tests of the daemon's handling of bad input; the reply (if any) is read with
  /// ``nextReply(timeout:)``.
  /// - Throws: ``ClientError/Code/closed`` when the daemon has gone.
  public func sendLine(_ line: String) throws(ClientError) {
    var bytes = Array(line.utf8)
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    try connection.write(bytes)
  }

  /// Waits for the reply whose `id` is `id`, queuing events and other replies that arrive
  /// first. The reply is returned whether `ok` is true or false.
  ///
  /// - Parameter timeout: how long to wait; `nil` waits for ever.
  /// - Throws: ``ClientError/Code/timeout``, ``ClientError/Code/closed`` or
  ///   ``ClientError/Code/malformed``.
  public func reply(to id: Int, timeout: Duration?) throws(ClientError) -> Reply {
    if let index = queuedReplies.firstIndex(where: { $0.id == id }) {
      return queuedReplies.remove(at: index)
    }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      switch try readMessage(deadline: deadline) {
      case .event(let event):
        queuedEvents.append(event)
      case .reply(let reply) where reply.id == id:
        return reply
      case .reply(let reply):
        queuedReplies.append(reply)
      }
    }
  }

  /// Returns the oldest reply not yet handed out, whatever its `id` (or lack of one).
  ///
  /// - Parameter timeout: how long to wait; `nil` waits for ever.
  /// - Throws: ``ClientError/Code/timeout``, ``ClientError/Code/closed`` or
  ///   ``ClientError/Code/malformed``.
  public func nextReply(timeout: Duration?) throws(ClientError) -> Reply {
    if !queuedReplies.isEmpty { return queuedReplies.removeFirst() }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      switch try readMessage(deadline: deadline) {
      case .event(let event): queuedEvents.append(event)
      case .reply(let reply): return reply
      }
    }
  }

  /// Sends `request` and waits for its reply.
  ///
  /// - Parameter timeout: how long to wait; ``defaultTimeout`` when `nil`.
  /// - Returns: the successful reply.
  /// - Throws: ``ClientError/Code/protocolError`` when the daemon answers `ok: false`, and the
  ///   errors of ``send(_:)`` and ``reply(to:timeout:)``.
  @discardableResult
  public func request(_ request: [String: JSONValue], timeout: Duration? = nil) throws(ClientError)
    -> Reply
  {
    let id = try send(request)
    return try reply(to: id, timeout: timeout ?? defaultTimeout).checked()
  }

  /// Sends `op` with `fields` and waits for its reply (see ``request(_:timeout:)``).
  @discardableResult
  public func request(_ op: Op, _ fields: [String: JSONValue] = [:], timeout: Duration? = nil)
    throws(ClientError) -> Reply
  {
    try request(fields.merging(["op": .string(op.rawValue)]) { _, op in op }, timeout: timeout)
  }

  // MARK: Events

  /// Returns the next event, first from those queued while replies were awaited.
  ///
  /// Replies that arrive meanwhile are kept for ``reply(to:timeout:)``.
  /// - Parameter timeout: how long to wait; `nil` waits for ever.
  /// - Throws: ``ClientError/Code/timeout``, ``ClientError/Code/closed`` (the daemon went
  ///   away) or ``ClientError/Code/malformed``.
  public func nextEvent(timeout: Duration?) throws(ClientError) -> Event {
    // With nothing else to watch, only an event ends the wait.
    try nextEvent(timeout: timeout, orReadable: [])!
  }

  /// Returns the next event as ``nextEvent(timeout:)`` does, or nil as soon as one of
  /// `others` (an inotify descriptor, a signal's pipe) is readable while the socket is waited
  /// for; when both are readable, `others` win, so that a stream of frames cannot starve them.
  /// The caller reads `others` itself; an event half-read stays buffered for the next call.
  ///
  /// - Throws: as ``nextEvent(timeout:)``.
  public func nextEvent(timeout: Duration?, orReadable others: [Int32]) throws(ClientError)
    -> Event?
  {
    if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      guard let message = try readMessage(deadline: deadline, orReadable: others) else {
        return nil
      }
      switch message {
      case .event(let event): return event
      case .reply(let reply): queuedReplies.append(reply)
      }
    }
  }

  /// The events of this connection as a sequence that ends when the daemon closes the
  /// connection or sends `stopping` (which is yielded last).
  ///
  /// Other failures (a malformed line, a timeout) also end the sequence; the iterator's
  /// ``EventIterator/error`` then holds it.
  /// - Parameter timeout: the longest wait for any one event; `nil` waits for ever.
  public func events(timeout: Duration? = nil) -> EventSequence {
    EventSequence(client: self, timeout: timeout)
  }

  // MARK: Reading

  private enum Message {
    case reply(Reply)
    case event(Event)
  }

  private func readMessage(deadline: ContinuousClock.Instant?) throws(ClientError) -> Message {
    // With nothing else to watch, only a line ends the wait.
    try readMessage(deadline: deadline, orReadable: [])!
  }

  private func readMessage(deadline: ContinuousClock.Instant?, orReadable others: [Int32])
    throws(ClientError) -> Message?
  {
    guard let bytes = try connection.readLine(deadline: deadline, orReadable: others) else {
      return nil
    }
    let line = String(decoding: bytes, as: UTF8.self)
    let decoded: JSONValue
    do {
      decoded = try JSONValue(parsing: bytes)
    } catch {
      throw ClientError(.malformed, "the daemon sent a line that is not JSON: \(line.prefix(200))")
    }
    guard case .object(let fields) = decoded else {
      throw ClientError(
        .malformed, "the daemon sent a line that is not a JSON object: \(line.prefix(200))")
    }
    if fields["event"] != nil {
      return .event(try Event(fields: fields, line: line, applier: &deltaApplier))
    }
    return .reply(try Reply(fields: fields, line: line))
  }
}

/// The events of a ``DaemonClient``, for `for event in client.events() { … }`.
public struct EventSequence: Sequence {
  let client: DaemonClient
  let timeout: Duration?

  public func makeIterator() -> EventIterator {
    EventIterator(client: client, timeout: timeout)
  }
}

/// Iterates a client's events until the connection closes, `stopping` arrives, or an error
/// occurs (kept in ``error``).
public struct EventIterator: IteratorProtocol {
  let client: DaemonClient
  let timeout: Duration?
  private var finished = false
  /// The error that ended the iteration, if one did (a clean close leaves it `nil`).
  public private(set) var error: ClientError?

  init(client: DaemonClient, timeout: Duration?) {
    self.client = client
    self.timeout = timeout
  }

  public mutating func next() -> Event? {
    guard !finished else { return nil }
    do {
      let event = try client.nextEvent(timeout: timeout)
      if case .stopping = event { finished = true }
      return event
    } catch {
      finished = true
      if error.code != .closed { self.error = error }
      return nil
    }
  }
}

extension DaemonClient {
  /// The socket path a client uses when none is given: `$TRANSITIOND_SOCKET`, else
  /// `$XDG_RUNTIME_DIR/transitiond/transitiond.sock`, else `/tmp/transitiond-<uid>/transitiond.sock`
  /// (see `SocketPath.resolve(environment:uid:)`), for this process's real uid.
  public static func defaultPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    SocketPath.resolve(environment: environment, uid: getuid())
  }
}
