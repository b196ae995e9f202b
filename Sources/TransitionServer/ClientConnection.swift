import EventLoop
import TransitionJSON
import TransitionKit
import TransitionWire

/// One connected client: its socket, its subscriptions, and the slow-subscriber policy that
/// decides what happens to its frames.
///
/// Replies and events (`begin`, `complete`, `stopping`) are always written; frames of
/// wall-clock streams go through ``Backpressure`` and may be coalesced (per subscription and
/// session only the newest frame waits) or get the client disconnected. Virtual-clock frames
/// are produced only as fast as the connection drains, so they never pile up.
final class ClientConnection {
  /// A coalesced frame waiting for the connection to drain.
  private struct PendingFrame {
    let subscriptionID: Int
    let session: String
    let bytes: [UInt8]
  }

  let connection: Connection
  let credentials: PeerCredentials?
  private unowned let daemon: Daemon
  private(set) var subscriptions: [Subscription] = []
  private var backpressure: Backpressure
  private var pendingFrames: [PendingFrame] = []
  /// Unsent bytes below which virtual subscriptions produce more frames.
  private let virtualBatchBytes: Int

  /// Wraps an accepted connection; lines go to the daemon's router.
  init(connection: Connection, daemon: Daemon, limits: ServerLimits) {
    self.connection = connection
    self.credentials = connection.peerCredentials
    self.daemon = daemon
    backpressure = Backpressure(limits: limits)
    virtualBatchBytes = max(min(64 * 1024, limits.subscriberSoftLimitBytes), 4096)
    connection.maximumLineLength = limits.maxLineBytes
    connection.writeLowWatermark = virtualBatchBytes / 4
    connection.onLine = { [weak self] _, line in
      guard let self else { return }
      self.daemon.stats.bytesReceived += line.count + 1
      self.daemon.handle(line: line, from: self)
    }
    connection.onLineTooLong = { [weak self] _ in self?.lineTooLong() }
    connection.partialLineTimeout = limits.partialLineSeconds
    connection.onPartialLineTimeout = { [weak self] _ in self?.partialLineTimedOut() }
    connection.onDrained = { [weak self] _ in self?.drained() }
    connection.onClose = { [weak self] _, reason in
      guard let self else { return }
      self.daemon.clientClosed(self, reason: reason)
    }
  }

  var id: UInt64 { connection.id }
  var isOpen: Bool { connection.isOpen }

  /// `pid P uid U`, for log lines.
  var peerDescription: String {
    guard let credentials else { return "client \(id)" }
    return "client \(id) (pid \(credentials.pid), uid \(credentials.uid))"
  }

  // MARK: Subscriptions

  /// Adds a subscription (its id is unique in the daemon).
  func add(_ subscription: Subscription) {
    subscriptions.append(subscription)
  }

  /// The subscription with `id`, if this connection holds it.
  func subscription(id: Int) -> Subscription? {
    subscriptions.first { $0.id == id }
  }

  /// Removes a subscription that ended (its session completed) or was cancelled.
  func subscriptionEnded(_ subscription: Subscription) {
    subscriptions.removeAll { $0 === subscription }
    pendingFrames.removeAll { $0.subscriptionID == subscription.id }
  }

  // MARK: Writing

  /// Writes a reply or an event line; never dropped. Disconnects a client over the hard
  /// limit.
  func send(_ bytes: [UInt8]) {
    guard isOpen, connection.write(bytes) else { return }
    daemon.stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  /// Writes the success reply for a request with `id`.
  func reply(id: RequestID?, _ fields: [String: JSONValue] = [:]) {
    send(WireMessage.success(id: id, fields))
  }

  /// Writes the error reply for a request with `id`.
  func fail(id: RequestID?, _ error: WireError) {
    send(WireMessage.failure(id: id, error))
  }

  /// Writes a wall-clock frame, or coalesces it when the client reads too slowly.
  func sendFrame(_ bytes: [UInt8], subscription: Subscription, session: String) {
    guard isOpen else { return }
    switch backpressure.decide(pending: connection.pendingOutputBytes, now: daemon.loop.now) {
    case .write:
      dropPendingFrame(subscriptionID: subscription.id, session: session)
      writeFrame(bytes)
    case .coalesce:
      dropPendingFrame(subscriptionID: subscription.id, session: session)
      pendingFrames.append(
        PendingFrame(subscriptionID: subscription.id, session: session, bytes: bytes))
    case .disconnect(let reason):
      disconnectSlow(reason)
    }
  }

  /// Writes a stream's final frame and its `complete` event; neither is ever coalesced away
  /// (a waiting older frame of that stream is dropped instead).
  func sendFinal(frame: [UInt8], complete: [UInt8], subscription: Subscription, session: String) {
    guard isOpen else { return }
    dropPendingFrame(subscriptionID: subscription.id, session: session)
    writeFrame(frame)
    send(complete)
  }

  /// Writes a virtual-clock frame (produced only while the connection keeps up).
  func sendVirtualFrame(_ bytes: [UInt8]) {
    guard isOpen else { return }
    writeFrame(bytes)
  }

  /// Produces virtual-clock frames until the unsent bytes reach the batch size or no
  /// virtual subscription has frames left.
  func pumpVirtual() {
    var active = subscriptions.filter { $0.clock == .virtual && $0.hasVirtualFrames }
    while isOpen, !active.isEmpty, connection.pendingOutputBytes < virtualBatchBytes {
      active = active.filter { $0.pumpVirtual(into: self) }
    }
  }

  /// Ends the connection after sending what is queued.
  func closeAfterFlush() {
    connection.closeAfterFlush()
  }

  private func writeFrame(_ bytes: [UInt8]) {
    guard connection.write(bytes) else { return }
    daemon.stats.framesSent += 1
    daemon.stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  private func dropPendingFrame(subscriptionID: Int, session: String) {
    guard
      let index = pendingFrames.firstIndex(where: {
        $0.subscriptionID == subscriptionID && $0.session == session
      })
    else { return }
    pendingFrames.remove(at: index)
    daemon.stats.framesCoalesced += 1
  }

  private func enforceHardLimit() {
    guard isOpen,
      let reason = backpressure.hardLimitExceeded(pending: connection.pendingOutputBytes)
    else { return }
    disconnectSlow(reason)
  }

  private func disconnectSlow(_ reason: String) {
    guard isOpen else { return }
    daemon.stats.slowSubscribersDisconnected += 1
    daemon.logger.warn("disconnecting slow \(peerDescription): \(reason)")
    connection.close()
  }

  private func drained() {
    backpressure.drained(pending: connection.pendingOutputBytes)
    while isOpen, !pendingFrames.isEmpty,
      connection.pendingOutputBytes <= backpressure.softLimit
    {
      writeFrame(pendingFrames.removeFirst().bytes)
    }
    pumpVirtual()
  }

  private func partialLineTimedOut() {
    let seconds = connection.partialLineTimeout ?? 0
    daemon.logger.warn(
      "\(peerDescription) left a request line unfinished for more than \(seconds) s; closing")
    fail(
      id: nil,
      WireError(
        .limitExceeded,
        "a request line stayed unfinished for more than \(seconds) s "
          + "(limits.partialLineSeconds); closing the connection"))
    connection.closeAfterFlush()
  }

  private func lineTooLong() {
    daemon.logger.warn(
      "\(peerDescription) sent a line longer than \(connection.maximumLineLength) bytes; closing")
    fail(
      id: nil,
      WireError(
        .lineTooLong,
        "a request line is longer than the limit of \(connection.maximumLineLength) bytes"))
    connection.closeAfterFlush()
  }
}
