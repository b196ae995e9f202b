import TransitionJSON
import TransitionKit
import TransitionWire

/// The core's side of one connected peer: its subscriptions, its requests waiting for an
/// earlier `begin` to be answered, and the slow-subscriber policy that decides what happens
/// to its frames.
///
/// Replies and events (`begin`, `complete`, `stopping`) are always sent; frames of
/// wall-clock streams go through ``Backpressure`` and may be coalesced (per subscription and
/// session only the newest frame waits) or get the peer closed. Virtual-clock frames are
/// produced only as fast as the peer drains, so they never pile up.
final class Client: CustomStringConvertible {
  /// A coalesced frame waiting for the peer to drain (the one copy of a frame's bytes, made
  /// only for a peer that reads too slowly).
  private struct PendingFrame {
    let subscriptionID: Int
    let session: String
    let bytes: [UInt8]
  }

  let peer: Peer
  let identity: PeerIdentity?
  private let stats: ServerStats
  private let logger: Logger
  private let clock: ServerClock
  private(set) var subscriptions: [Subscription] = []
  private var backpressure: Backpressure
  private var pendingFrames: [PendingFrame] = []
  /// Unsent bytes below which virtual subscriptions produce more frames.
  private let virtualBatchBytes: Int
  /// True while a `begin` of this client waits for its animator, or a `reload` for the
  /// plugin host's rescan: later requests wait too, so replies keep the order of requests.
  var isWaitingForAnimator = false
  /// Request lines received while waiting, in order.
  var waitingLines: [[UInt8]] = []
  /// The frame clock tick that last held this client's output (kept by ``HeldOutput``).
  var holdMark: HeldOutput.Mark?

  init(peer: Peer, limits: ServerLimits, stats: ServerStats, logger: Logger, clock: ServerClock) {
    self.peer = peer
    self.identity = peer.identity
    self.stats = stats
    self.logger = logger
    self.clock = clock
    backpressure = Backpressure(limits: limits)
    virtualBatchBytes = limits.virtualBatchBytes
  }

  var id: UInt64 { peer.id }
  var isOpen: Bool { peer.isOpen }

  /// `client N (pid P, uid U)`, for log lines.
  var description: String {
    guard let identity else { return "client \(id)" }
    return "client \(id) (pid \(identity.pid), uid \(identity.uid))"
  }

  // MARK: Subscriptions

  /// Adds a subscription (its id is unique in the server).
  func add(_ subscription: Subscription) {
    subscriptions.append(subscription)
  }

  /// The subscription with `id`, if this client holds it.
  func subscription(id: Int) -> Subscription? {
    subscriptions.first { $0.id == id }
  }

  /// Removes a subscription that ended (its session completed) or was cancelled.
  func subscriptionEnded(_ subscription: Subscription) {
    subscriptions.removeAll { $0 === subscription }
    pendingFrames.removeAll { $0.subscriptionID == subscription.id }
  }

  // MARK: Sending

  /// Sends a reply or an event line; never dropped. Closes a peer over the hard limit.
  func send(_ bytes: [UInt8]) {
    guard isOpen, peer.send(bytes) else { return }
    stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  /// Sends what is queued for the peer now (``Peer/flushNow()``), held output included.
  func flushNow() {
    guard isOpen else { return }
    peer.flushNow()
  }

  /// Keeps what is queued for the peer from now on until ``flushNow()``
  /// (``Peer/holdOutput()``): frames rendered ahead of their deadline wait for it.
  func holdOutput() {
    guard isOpen else { return }
    peer.holdOutput()
  }

  /// Sends the success reply for a request with `id`.
  func reply(id: RequestID?, _ fields: [String: JSONValue] = [:]) {
    send(WireMessage.success(id: id, fields))
  }

  /// Sends the error reply for a request with `id`.
  func fail(id: RequestID?, _ error: WireError) {
    send(WireMessage.failure(id: id, error))
  }

  /// Sends a wall-clock frame, or coalesces it when the peer reads too slowly.
  func sendFrame(_ bytes: UnsafeRawBufferPointer, subscription: Subscription, session: String) {
    switch admitFrame(subscription: subscription, session: session) {
    case .write: writeFrame(bytes)
    case .coalesce: coalesceFrame(bytes, subscription: subscription, session: session)
    case .closed: break
    }
  }

  /// What becomes of a wall-clock frame for this peer (``admitFrame(subscription:session:)``).
  enum FrameAdmission {
    /// Write it now (``writeFrame(_:)``); an older frame of the stream that waited is dropped.
    case write
    /// Keep it as the stream's one waiting frame (``coalesceFrame(_:subscription:session:)``).
    case coalesce
    /// The peer is closed (or was closed now, for being too slow): send nothing.
    case closed
  }

  /// Decides, by the slow-subscriber policy, whether a wall-clock frame of `subscription`'s
  /// stream of `session` is written or coalesced; a frame of that stream still waiting is
  /// dropped (and counted) either way, as the new one replaces it. A delta subscription,
  /// whose frames build on the one before, picks its bytes by the answer (a key frame after
  /// anything was dropped).
  func admitFrame(subscription: Subscription, session: String) -> FrameAdmission {
    guard isOpen else { return .closed }
    let pending = peer.pendingOutputBytes
    // Below the soft limit (the steady state) no clock is read and nothing is looked up.
    if pending <= backpressure.softLimit, pendingFrames.isEmpty {
      backpressure.drained(pending: pending)
      return .write
    }
    switch backpressure.decide(pending: pending, now: clock.now) {
    case .write:
      dropPendingFrame(subscriptionID: subscription.id, session: session)
      return .write
    case .coalesce:
      dropPendingFrame(subscriptionID: subscription.id, session: session)
      return .coalesce
    case .disconnect(let reason):
      closeSlow(reason)
      return .closed
    }
  }

  /// Writes a frame admitted with ``FrameAdmission/write``.
  func writeFrame(_ bytes: UnsafeRawBufferPointer) {
    guard isOpen else { return }
    sendCountedFrame(bytes)
  }

  /// Keeps a copy of a frame admitted with ``FrameAdmission/coalesce`` until the peer drains.
  func coalesceFrame(_ bytes: UnsafeRawBufferPointer, subscription: Subscription, session: String) {
    pendingFrames.append(
      PendingFrame(subscriptionID: subscription.id, session: session, bytes: Array(bytes)))
  }

  /// Whether a coalesced frame of `subscription`'s stream of `session` waits to be written.
  func hasPendingFrame(subscription: Subscription, session: String) -> Bool {
    !pendingFrames.isEmpty
      && pendingFrames.contains { $0.subscriptionID == subscription.id && $0.session == session }
  }

  /// Sends a stream's final frame and its `complete` event; neither is ever coalesced away
  /// (a waiting older frame of that stream is dropped instead).
  func sendFinal(
    frame: UnsafeRawBufferPointer, complete: [UInt8], subscription: Subscription, session: String
  ) {
    guard isOpen else { return }
    dropPendingFrame(subscriptionID: subscription.id, session: session)
    sendCountedFrame(frame)
    send(complete)
  }

  /// Sends a virtual-clock frame (produced only while the peer keeps up).
  func sendVirtualFrame(_ bytes: UnsafeRawBufferPointer) {
    guard isOpen else { return }
    sendCountedFrame(bytes)
  }

  /// Produces virtual-clock frames until the unsent bytes reach the batch size or no
  /// virtual subscription has frames left.
  func pumpVirtual() {
    guard subscriptions.contains(where: { $0.clock == .virtual && $0.hasVirtualFrames }) else {
      return
    }
    var active = subscriptions.filter { $0.clock == .virtual && $0.hasVirtualFrames }
    var pumped = false
    while isOpen, !active.isEmpty, peer.pendingOutputBytes < virtualBatchBytes {
      active = active.filter { $0.pumpVirtual(into: self) }
      pumped = true
    }
    // Virtual frames wait for no deadline: what the peer holds for one leaves with them.
    if pumped, isOpen, peer.isHoldingOutput { peer.flushNow() }
  }

  /// The peer's queued output fell low: waiting frames go out, virtual streams go on.
  func drained() {
    backpressure.drained(pending: peer.pendingOutputBytes)
    while isOpen, !pendingFrames.isEmpty, peer.pendingOutputBytes <= backpressure.softLimit {
      pendingFrames.removeFirst().bytes.withUnsafeBytes { sendCountedFrame($0) }
    }
    pumpVirtual()
  }

  private func sendCountedFrame(_ bytes: UnsafeRawBufferPointer) {
    guard peer.send(bytes) else { return }
    stats.framesSent += 1
    stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  private func dropPendingFrame(subscriptionID: Int, session: String) {
    guard
      let index = pendingFrames.firstIndex(where: {
        $0.subscriptionID == subscriptionID && $0.session == session
      })
    else { return }
    pendingFrames.remove(at: index)
    stats.framesCoalesced += 1
  }

  private func enforceHardLimit() {
    guard isOpen, let reason = backpressure.hardLimitExceeded(pending: peer.pendingOutputBytes)
    else { return }
    closeSlow(reason)
  }

  private func closeSlow(_ reason: String) {
    guard isOpen else { return }
    stats.slowSubscribersDisconnected += 1
    logger.warnRefusal("disconnecting slow \(self): \(reason)")
    peer.close()
  }
}

@available(*, unavailable) extension Client: Sendable {}
