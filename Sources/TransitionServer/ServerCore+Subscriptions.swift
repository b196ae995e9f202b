import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// `subscribe`, `unsubscribe` and `resync`.
extension ServerCore {
  func subscribe(_ request: SubscribeRequest, id: RequestID?, from client: Client)
    throws(WireError)
  {
    let subscription = try makeSubscription(request, for: client)
    var reply: [String: JSONValue] = [
      "subscription": .number(Double(subscription.id)), "session": .string(request.target),
      "fps": .number(request.fps), "clock": .string(request.clock.rawValue),
      "encoding": .string(request.encoding.rawValue),
    ]
    // Named only when asked for, so that a plain subscription's reply stays as it was.
    if request.geometry != .none { reply["geometry"] = .string(request.geometry.rawValue) }
    if let display = subscription.display { reply["display"] = display.json }
    client.reply(id: id, reply)
    startFollowing(subscription, of: client)
  }

  /// Subscribes `peer`, a connected peer that sends no request lines (the daemon's HTTP event
  /// streams), to `session` (nil for every session) on the wall clock at `fps`, with full or
  /// delta frames: the same as a `subscribe` request, limits included, but without its reply,
  /// so the peer receives only events (each `begin` event names the subscription's `clock`,
  /// `fps` and `encoding`, as the reply would). It is the only thing such a peer can ask for; a
  /// delta stream cannot ask `resync`, so a reader that lost its place subscribes again, and
  /// the new subscription starts each session with a key frame.
  ///
  /// With `display`, its frames are paced by the reader's display as `subscribe`'s `display`
  /// paces them (docs/protocol.md, "Display pacing").
  ///
  /// - Throws: `bad_request` for an fps or a display timing out of range, `unknown_session`,
  ///   `limit_exceeded`, or `bad_request` when the peer is not connected.
  public func subscribeEventStream(
    _ peer: Peer, session: String?, fps: Double, timeline: Bool = false,
    encoding: FrameEncoding = .full,
    display: (period: Double, vblank: Double, lead: Double?)? = nil
  ) throws(WireError) {
    guard let client = clients[peer.id] else {
      throw WireError(.badRequest, "peer \(peer.id) is not connected")
    }
    guard ServerConfig.fpsRange.contains(fps) else {
      throw WireError(.badRequest, "fps must be in [1, 240], got \(JSONValue.format(fps))")
    }
    let timing = try display.map { display throws(WireError) in
      try DisplayTiming(
        checking: display.period, vblank: display.vblank, lead: display.lead ?? config.pacingLead,
        now: clock.now, prefix: "")
    }
    let request = SubscribeRequest(
      session: session, fps: fps, clock: .wall, timeline: timeline, encoding: encoding,
      display: timing)
    startFollowing(try makeSubscription(request, for: client), of: client)
  }

  /// Checks the subscription limit and the session, and adds the subscription to `client`.
  private func makeSubscription(_ request: SubscribeRequest, for client: Client)
    throws(WireError) -> Subscription
  {
    let limit = config.limits.maxSubscriptionsPerClient
    guard client.subscriptions.count < limit else {
      throw WireError(
        .limitExceeded,
        "too many subscriptions on this connection: the limit is \(limit) "
          + "(limits.maxSubscriptionsPerClient)")
    }
    let session = try request.session.map { name throws(WireError) in try existingSession(name) }
    let subscription = Subscription(
      id: makeSubscriptionID(), target: session.map { .session($0.id) } ?? .every,
      fps: request.fps, clock: request.clock, includesTimeline: request.timeline,
      encoding: request.encoding, geometry: request.geometry, display: request.display,
      client: client)
    client.add(subscription)
    return subscription
  }

  /// Sends the `begin` event of each session `subscription` follows, then its frames.
  private func startFollowing(_ subscription: Subscription, of client: Client) {
    // Sending the reply may have closed a client far over its limits.
    guard client.isOpen else { return }
    let target: String
    if case .session(let name) = subscription.target { target = name } else { target = "*" }
    logger.debug(
      "\(client) subscribed to \(target) at \(subscription.fps) fps (\(subscription.clock.rawValue))"
    )
    let now = clock.now
    if case .session(let name) = subscription.target, let session = sessions[name] {
      client.send(beginEvent(for: session, subscription: subscription))
      guard client.isOpen else { return }
      subscription.follow(session, at: now)
    } else if subscription.target == .every {
      sessions.addEverySessionSubscription(subscription)
      for running in sessions.all {
        client.send(beginEvent(for: running, subscription: subscription))
        guard client.isOpen else { return }
        subscription.follow(running, at: now)
      }
    }
    if subscription.clock == .virtual { client.pumpVirtual() }
  }

  func unsubscribe(_ id: Int, id requestID: RequestID?, from client: Client) throws(WireError) {
    guard let subscription = client.subscription(id: id) else {
      throw WireError(
        .unknownSubscription, "no subscription \(id) on this connection (it may have ended)")
    }
    cancel(subscription, of: client)
    client.reply(id: requestID, ["subscription": .number(Double(id))])
  }

  /// `resync`: the next frame of every session a delta subscription follows is a key frame,
  /// sent at once for a wall stream that has shown a frame (after the reply).
  func resync(_ id: Int, id requestID: RequestID?, from client: Client) throws(WireError) {
    guard let subscription = client.subscription(id: id) else {
      throw WireError(
        .unknownSubscription, "no subscription \(id) on this connection (it may have ended)")
    }
    guard subscription.encoding == .delta else {
      throw WireError(
        .badRequest,
        "subscription \(id) has full frames: resync is for a subscription with encoding \"delta\"")
    }
    client.reply(id: requestID, ["subscription": .number(Double(id))])
    subscription.resync(at: clock.now)
    if subscription.clock == .virtual { client.pumpVirtual() }
    client.flushNow()
  }
}
