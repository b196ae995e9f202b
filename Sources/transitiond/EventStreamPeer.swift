import DaemonSupport
import LibeventLoop
import TransitionServer

/// Adapts one HTTP `/events` request, answered as a stream of Server-Sent Events, to the
/// core's ``Peer`` (docs/architecture.md, "The peer contract"): each line the core queues
/// goes out as one event, `data: <the line>` and a blank line, so a browser's `EventSource`
/// receives exactly the JSON lines a socket client reads. The peer sends no request lines:
/// the daemon subscribes it once (``ServerCore/subscribeEventStream(_:session:fps:)``), and
/// that is all it can do. It has no identity (it is never an admin, nor a session's owner).
final class EventStreamPeer: Peer {
  let id: UInt64
  let request: HTTPRequest
  /// Events queued before the reply started (the `begin` events and first frames the
  /// subscription sends), or nil once it streams.
  private var early: [UInt8]? = []
  /// Events held for a frame clock's deadline (``holdOutput()``), or nil while none are.
  private var held: [UInt8]?
  private var closeReported = false
  /// Called once when the peer ends, after the core was told.
  var onEnded: ((EventStreamPeer) -> Void)?
  private unowned let core: ServerCore
  private let drainedWatermark: Int
  private let writeTimeoutSeconds: Double

  /// Wires `request` to `core`; call ``ServerCore/connect(_:)``, subscribe, then
  /// ``startStreaming()``.
  init(id: UInt64, request: HTTPRequest, core: ServerCore, limits: ServerLimits, http: HTTPSettings)
  {
    self.id = id
    self.request = request
    self.core = core
    drainedWatermark = limits.drainedWatermarkBytes
    writeTimeoutSeconds = http.timeoutSeconds
    request.onClose = { [unowned self] in self.reportClosed(reason: "the connection closed") }
    request.onDrained = { [unowned self] in
      if self.request.pendingOutputBytes <= self.drainedWatermark { self.core.peerDrained(self) }
    }
  }

  var identity: PeerIdentity? { nil }
  var isOpen: Bool { !closeReported && request.isOpen }
  var pendingOutputBytes: Int {
    (early?.count ?? request.pendingOutputBytes) + (held?.count ?? 0)
  }

  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    if early != nil {
      early?.append(contentsOf: Self.events(of: bytes))
      return true
    }
    if held != nil {
      held?.append(contentsOf: Self.events(of: bytes))
      return true
    }
    return request.send(Self.events(of: bytes))
  }

  /// Keeps the events sent from now on until ``flushNow()``, as a socket connection does: the
  /// frames a frame clock rendered ahead leave at their deadline.
  func holdOutput() {
    guard isOpen, early == nil, held == nil else { return }
    held = []
  }

  var isHoldingOutput: Bool { held != nil }

  /// Sends the held events, as one chunk.
  func flushNow() {
    guard let events = held else { return }
    held = nil
    if isOpen, !events.isEmpty { request.send(events) }
  }

  /// Starts the `200 OK` event stream and sends what was queued before it.
  func startStreaming() {
    guard isOpen, let queued = early else { return }
    early = nil
    request.startStream(
      headers: [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
      ], writeTimeoutSeconds: writeTimeoutSeconds)
    if !queued.isEmpty { request.send(queued) }
  }

  /// Answers the request with an error instead of a stream (the subscription was refused),
  /// and ends the peer.
  func refuse(status: Int32, reason: String, message: String) {
    guard isOpen else { return }
    early = nil
    request.respond(
      status: status, reason: reason,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
      body: Array((message + "\n").utf8))
    reportClosed(reason: nil)
  }

  /// A `:` comment line: keeps an idle stream moving so that neither side times it out, and
  /// lets a stream whose reader left be noticed.
  func keepAlive() {
    guard isOpen, early == nil, request.pendingOutputBytes == 0 else { return }
    request.send(Array(":\n\n".utf8))
  }

  func close() {
    guard isOpen else { return }
    if early != nil {
      refuse(status: 503, reason: "Service Unavailable", message: "closed by the daemon")
      return
    }
    request.abort()
    reportClosed(reason: nil)
  }

  func closeAfterFlush() {
    guard isOpen else { return }
    if let queued = early {
      // Refused before it streamed (the core's limits): the refusal's JSON line is the body.
      let line = queued.split(separator: UInt8(ascii: "\n")).first.map { Array($0.dropFirst(6)) }
      refuse(
        status: 503, reason: "Service Unavailable",
        message: String(decoding: line ?? [], as: UTF8.self))
      return
    }
    flushNow()
    request.endStream()
    reportClosed(reason: nil)
  }

  private func reportClosed(reason: String?) {
    guard !closeReported else { return }
    closeReported = true
    core.peerClosed(self, reason: reason)
    let handler = onEnded
    onEnded = nil
    handler?(self)
  }

  /// `bytes` (whole `\n`-terminated lines) as Server-Sent Events: `data: LINE\n\n` each.
  static func events(of bytes: [UInt8]) -> [UInt8] {
    var events: [UInt8] = []
    events.reserveCapacity(bytes.count + 8)
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      events.append(contentsOf: "data: ".utf8)
      events.append(contentsOf: line)
      events.append(contentsOf: "\n\n".utf8)
    }
    return events
  }
}

@available(*, unavailable) extension EventStreamPeer: Sendable {}
