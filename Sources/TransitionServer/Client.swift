import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// The core's side of one connected peer: its subscriptions, its requests waiting for an
/// earlier `begin` to be answered, and the slow-subscriber policy that decides what happens
/// to its frames.
///
/// Replies and events (`begin`, `complete`, `stopping`) are always sent; frames of
/// wall-clock streams go through ``Backpressure`` and may be coalesced (per subscription and
/// session the peer is owed only the stream's newest frame, rendered when it drains) or get
/// the peer closed. Virtual-clock frames are produced only as fast as the peer drains, so
/// they never pile up.
final class Client: FrameSink, CustomStringConvertible {
  /// A coalesced frame: the peer is owed the newest frame of a subscription's stream of a
  /// session, which the stream renders again when the peer drains. Nothing of the frames in
  /// between is kept.
  private struct OwedFrame: Equatable {
    let subscriptionID: Int
    let session: String
  }

  let peer: Peer
  /// The peer's output as the frame path holds and releases it.
  private let output: any FrameOutput
  let identity: PeerIdentity?
  private let stats: ServerStats
  private let logger: Logger
  private let clock: ServerClock
  private(set) var subscriptions: [Subscription] = []
  /// How many of ``subscriptions`` run on the virtual clock, so that a drain of a client with
  /// none looks at none of them.
  private var virtualSubscriptionCount = 0
  private var backpressure: Backpressure
  private var owedFrames: [OwedFrame] = []
  /// Unsent bytes below which virtual subscriptions produce more frames.
  private let virtualBatchBytes: Int
  /// True while a `begin` of this client waits for its animator, or a `reload` for the
  /// plugin host's rescan: later requests wait too, so replies keep the order of requests.
  var isWaitingForAnimator = false
  /// Request lines received while waiting, in order.
  var waitingLines: [[UInt8]] = []
  /// The frame clock tick that last held this client's output (kept by ``FramePresenter``).
  var presentationMark: FramePresenter.Mark?

  init(
    peer: Peer, output: any FrameOutput, limits: ServerLimits, stats: ServerStats, logger: Logger,
    clock: ServerClock
  ) {
    self.peer = peer
    self.output = output
    self.identity = peer.identity
    self.stats = stats
    self.logger = logger
    self.clock = clock
    backpressure = Backpressure(limits: limits)
    virtualBatchBytes = limits.virtualBatchBytes
  }

  var id: UInt64 { peer.id }
  var isOpen: Bool { peer.isOpen }

  /// The name the client gave in `hello`, if any.
  var name: String?

  /// `client N "NAME" (pid P, uid U)`, for log lines.
  var description: String {
    let named = name.map { "client \(id) \"\($0)\"" } ?? "client \(id)"
    guard let identity else { return named }
    return "\(named) (pid \(identity.pid), uid \(identity.uid))"
  }

  // MARK: Subscriptions

  /// Adds a subscription (its id is unique in the server).
  func add(_ subscription: Subscription) {
    subscriptions.append(subscription)
    if subscription.clock == .virtual { virtualSubscriptionCount += 1 }
  }

  /// The subscription with `id`, if this client holds it.
  func subscription(id: Int) -> Subscription? {
    subscriptions.first { $0.id == id }
  }

  /// Removes a subscription that ended (its session completed) or was cancelled.
  func subscriptionEnded(_ subscription: Subscription) {
    if let index = subscriptions.firstIndex(where: { $0 === subscription }) {
      subscriptions.remove(at: index)
      if subscription.clock == .virtual { virtualSubscriptionCount -= 1 }
    }
    owedFrames.removeAll { $0.subscriptionID == subscription.id }
  }

  // MARK: Sending

  /// Sends a reply or an event line; never dropped. Closes a peer over the hard limit.
  func send(_ bytes: [UInt8]) {
    guard isOpen, peer.send(bytes) else { return }
    stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  /// Sends what is queued for the peer now (``FrameOutput/flushNow()``), held output
  /// included.
  func flushNow() {
    guard isOpen else { return }
    output.flushNow()
  }

  /// Keeps what is queued for the peer from now on until ``flushNow()``
  /// (``FrameOutput/holdOutput()``): frames rendered ahead of their deadline wait for it.
  func holdOutput() {
    guard isOpen else { return }
    output.holdOutput()
  }

  /// Ends a hold of the peer's output (``FrameOutput/flush()``): a request arrived, and its
  /// reply never waits for a deadline.
  func endHold() {
    output.flush()
  }

  /// Sends the success reply for a request with `id`.
  func reply(id: RequestID?, _ fields: [String: JSONValue] = [:]) {
    send(WireMessage.success(id: id, fields))
  }

  /// Sends the error reply for a request with `id`.
  func fail(id: RequestID?, _ error: WireError) {
    send(WireMessage.failure(id: id, error))
  }

  /// Decides, by the slow-subscriber policy, whether a wall-clock frame of `subscriber`'s
  /// stream of `session` is written or coalesced; a frame of that stream still owed is
  /// dropped (and counted) either way, as the new one replaces it. Coalesced, the peer is
  /// owed the stream's newest frame: one entry, kept in place, stands for every frame it
  /// replaces. A delta subscription,
  /// whose frames build on the one before, picks its bytes by the answer (a key frame after
  /// anything was dropped). Asked before the frame is rendered: a frame no subscriber takes
  /// is never rendered.
  func admitFrame(subscriber: Int, session: String) -> FrameAdmission {
    guard isOpen else { return .closed }
    let pending = peer.pendingOutputBytes
    // Below the soft limit (the steady state) no clock is read and nothing is looked up.
    if pending <= backpressure.softLimit, owedFrames.isEmpty {
      backpressure.drained(pending: pending)
      return .write
    }
    switch backpressure.decide(pending: pending, now: clock.now) {
    case .write:
      dropOwedFrame(subscriptionID: subscriber, session: session)
      return .write
    case .coalesce:
      let owed = OwedFrame(subscriptionID: subscriber, session: session)
      if owedFrames.contains(owed) {
        stats.framesCoalesced += 1
      } else {
        owedFrames.append(owed)
      }
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

  /// Sends a stream's final frame and its `complete` event; neither is ever coalesced away
  /// (a waiting older frame of that stream is dropped instead).
  func sendFinal(
    frame: UnsafeRawBufferPointer, complete: [UInt8], subscriber: Int, session: String
  ) {
    guard isOpen else { return }
    dropOwedFrame(subscriptionID: subscriber, session: session)
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
    guard virtualSubscriptionCount > 0 else { return }
    var active = subscriptions.filter { $0.clock == .virtual && $0.hasVirtualFrames }
    var pumped = false
    while isOpen, !active.isEmpty, peer.pendingOutputBytes < virtualBatchBytes {
      active = active.filter { $0.pumpVirtual(into: self) }
      pumped = true
    }
    // Virtual frames wait for no deadline: what the peer holds for one leaves with them.
    if pumped, isOpen, output.isHoldingOutput { output.flushNow() }
  }

  /// The peer's queued output fell low: the streams render the frames it is owed, in the
  /// order they were owed, and virtual streams go on. Called from the loop (a transport's
  /// drain callback), never while a frame is being rendered.
  func drained() {
    backpressure.drained(pending: peer.pendingOutputBytes)
    while isOpen, !owedFrames.isEmpty, peer.pendingOutputBytes <= backpressure.softLimit {
      let owed = owedFrames.removeFirst()
      guard let subscription = subscription(id: owed.subscriptionID),
        let stream = subscription.stream(of: owed.session)
      else { continue }
      stream.sendLatestFrame(to: subscription)
    }
    pumpVirtual()
  }

  private func sendCountedFrame(_ bytes: UnsafeRawBufferPointer) {
    guard peer.send(bytes) else { return }
    stats.framesSent += 1
    stats.bytesSent += bytes.count
    enforceHardLimit()
  }

  private func dropOwedFrame(subscriptionID: Int, session: String) {
    guard
      let index = owedFrames.firstIndex(
        of: OwedFrame(subscriptionID: subscriptionID, session: session))
    else { return }
    owedFrames.remove(at: index)
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
