import DaemonSupport
import FrameStreaming
import LibeventLoop
import TransitionServer

/// Adapts one HTTP `/events` request, answered as a stream of Server-Sent Events, to the
/// core's ``Peer`` (docs/architecture.md, "The peer contract"): each line the core queues
/// goes out as one event, `data: <the line>` and a blank line, so a browser's `EventSource`
/// receives exactly the JSON lines a socket client reads. The peer sends no request lines:
/// the daemon subscribes it once (``ServerCore/subscribeEventStream(_:session:fps:timeline:encoding:)``), and
/// that is all it can do. It has no identity (it is never an admin, nor a session's owner).
///
/// When the events leave is the stream's rule, the one a socket connection follows
/// (``HTTPRequest``, an `OutputBatch`): what the core queues in one loop iteration leaves as
/// one chunk at its end, held output at the frame clock's deadline, and what the subscription
/// sends before the reply head is out (its `begin` event and first frames) with the head.
final class EventStreamPeer: Peer, FrameOutput {
  let id: UInt64
  let request: HTTPRequest
  /// True until the reply started streaming or was refused.
  private var isEarly = true
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
  var pendingOutputBytes: Int { request.pendingOutputBytes }

  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    guard isOpen else { return false }
    return request.write(Self.events(of: bytes))
  }

  /// Keeps the events sent from now on until ``flush()`` or ``flushNow()``, as a socket
  /// connection does: the frames a frame clock rendered ahead leave at their deadline.
  func holdOutput() {
    guard isOpen, !isEarly else { return }
    request.holdOutput()
  }

  var isHoldingOutput: Bool { request.isHoldingOutput }

  /// Ends a hold: the held events leave at the end of this loop iteration.
  func flush() { request.flush() }

  /// Sends the queued events now, as one chunk.
  func flushNow() { request.flushNow() }

  /// Starts the `200 OK` event stream and sends what was queued before it.
  func startStreaming() {
    guard isOpen, isEarly else { return }
    isEarly = false
    request.startStream(
      headers: [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
      ], writeTimeoutSeconds: writeTimeoutSeconds)
  }

  /// Answers the request with an error instead of a stream (the subscription was refused),
  /// and ends the peer.
  func refuse(status: Int32, reason: String, message: String) {
    guard isOpen else { return }
    isEarly = false
    request.respond(
      status: status, reason: reason,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
      body: Array((message + "\n").utf8))
    reportClosed(reason: nil)
  }

  /// A `:` comment line: keeps an idle stream moving so that neither side times it out, and
  /// lets a stream whose reader left be noticed.
  func keepAlive() {
    guard isOpen, !isEarly, request.pendingOutputBytes == 0 else { return }
    request.write(Array(":\n\n".utf8))
  }

  func close() {
    guard isOpen else { return }
    if isEarly {
      refuse(status: 503, reason: "Service Unavailable", message: "closed by the daemon")
      return
    }
    request.abort()
    reportClosed(reason: nil)
  }

  func closeAfterFlush() {
    guard isOpen else { return }
    if isEarly {
      // Refused before it streamed (the core's limits): the refusal's JSON line is the body.
      let queued = request.queuedOutput
      let line = queued.split(separator: UInt8(ascii: "\n")).first.map { Array($0.dropFirst(6)) }
      refuse(
        status: 503, reason: "Service Unavailable",
        message: String(decoding: line ?? [], as: UTF8.self))
      return
    }
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
