import TransitionJSON
import TransitionKit
import TransitionWire

/// `subscribe` and `unsubscribe`.
extension ServerCore {
  func subscribe(_ request: SubscribeRequest, id: RequestID?, from client: Client)
    throws(WireError)
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
      fps: request.fps, clock: request.clock, client: client)
    client.add(subscription)
    client.reply(
      id: id,
      [
        "subscription": .number(Double(subscription.id)), "session": .string(request.target),
        "fps": .number(request.fps), "clock": .string(request.clock.rawValue),
      ])
    // Sending the reply may have closed a client far over its limits.
    guard client.isOpen else { return }
    logger.debug(
      "\(client) subscribed to \(request.target) at \(request.fps) fps (\(request.clock.rawValue))"
    )
    let now = clock.now
    if let session {
      subscription.follow(session, at: now)
    } else {
      sessions.addEverySessionSubscription(subscription)
      for running in sessions.all {
        client.send(beginEvent(for: running))
        guard client.isOpen else { return }
        subscription.follow(running, at: now)
      }
    }
    if request.clock == .virtual { client.pumpVirtual() }
  }

  func unsubscribe(_ id: Int, id requestID: RequestID?, from client: Client) throws(WireError) {
    guard let subscription = client.subscription(id: id) else {
      throw WireError(
        .unknownSubscription, "no subscription \(id) on this connection (it may have ended)")
    }
    cancel(subscription, of: client)
    client.reply(id: requestID, ["subscription": .number(Double(id))])
  }
}
