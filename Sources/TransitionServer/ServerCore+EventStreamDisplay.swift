import FrameStreaming
import TransitionJSON
import TransitionWire

/// The display timing and presentation reports of a peer that sends no request lines (the
/// daemon's HTTP event streams, docs/viewer.md "Live"): the `display` and `presented` ops for
/// the one subscription ``subscribeEventStream(_:session:fps:timeline:encoding:display:)``
/// gave it, answered to the caller instead of on the stream.
extension ServerCore {
  /// `display` for the event stream `peer`: its frames are paced by `period`, `vblank` and
  /// `lead` (nil: the config's `pacingLead`) from now on.
  ///
  /// - Returns: The timing in force, as the `display` op's reply carries it.
  /// - Throws: `bad_request` for a timing out of bounds, `unknown_subscription` when the peer
  ///   has no subscription.
  public func retimeEventStream(
    _ peer: Peer, period: Double, vblank: Double, lead: Double?
  ) throws(WireError) -> JSONValue {
    let (client, subscription) = try eventStreamSubscription(of: peer)
    let now = clock.now
    let timing = try DisplayTiming(
      checking: period, vblank: vblank, lead: lead ?? config.pacingLead, now: now, prefix: "")
    subscription.retime(to: timing, requested: true, at: now)
    client.flushNow()
    return timing.json
  }

  /// `presented` for the event stream `peer`: frame `seq` of `session`, sent on it, was
  /// presented at `time` on the daemon's clock.
  ///
  /// - Throws: as the `presented` op, and `unknown_subscription` when the peer has no
  ///   subscription.
  public func reportEventStreamPresentation(
    _ peer: Peer, session: String, seq: Int, time: Double
  ) throws(WireError) {
    let (client, subscription) = try eventStreamSubscription(of: peer)
    let report = PresentationReport(
      subscription: subscription.id, session: session, seq: seq, time: time)
    let now = clock.now
    try report.checkTime(now: now)
    if let moved = try subscription.report(report) {
      subscription.retime(to: moved, requested: false, at: now)
      client.flushNow()
    }
  }

  /// The connected `peer` and its one subscription.
  private func eventStreamSubscription(of peer: Peer) throws(WireError) -> (Client, Subscription) {
    guard let client = clients[peer.id], let subscription = client.subscriptions.first else {
      throw WireError(.unknownSubscription, "the event stream has no subscription (it ended)")
    }
    return (client, subscription)
  }
}
