import TransitionJSON
import TransitionKit
import TransitionWire

/// `subscribe` and `unsubscribe`.
extension Daemon {
  func handleSubscribe(_ request: Request, from client: ClientConnection) throws(WireError) {
    let target = try request.requiredString("session")
    let fps = try request.optionalNumber("fps") ?? config.defaultFps
    guard ServerConfig.fpsRange.contains(fps) else {
      throw WireError(.badRequest, "fps must be in [1, 240], got \(JSONValue.format(fps))")
    }
    let clockName = try request.optionalString("clock") ?? Subscription.Clock.wall.rawValue
    guard let clock = Subscription.Clock(rawValue: clockName) else {
      throw WireError(.badRequest, "clock must be \"wall\" or \"virtual\", got \"\(clockName)\"")
    }
    let limit = config.limits.maxSubscriptionsPerClient
    guard client.subscriptions.count < limit else {
      throw WireError(
        .limitExceeded,
        "too many subscriptions on this connection: the limit is \(limit) "
          + "(limits.maxSubscriptionsPerClient)")
    }
    let session: Session?
    if target == "*" {
      session = nil
    } else {
      guard let found = sessions[target] else {
        throw WireError(.unknownSession, "no session named \(target)")
      }
      session = found
    }
    let subscription = Subscription(
      id: makeSubscriptionID(), target: session == nil ? .every : .session(target), fps: fps,
      clock: clock, client: client)
    client.add(subscription)
    client.reply(
      id: request.id,
      [
        "subscription": .number(Double(subscription.id)), "session": .string(target),
        "fps": .number(fps), "clock": .string(clock.rawValue),
      ])
    // Writing the reply may have disconnected a client far over its limits.
    guard client.isOpen else { return }
    logger.debug(
      "\(client.peerDescription) subscribed to \(target) at \(fps) fps (\(clock.rawValue))")
    if let session {
      subscription.follow(session)
    } else {
      sessions.addEverySessionSubscription(subscription)
      for running in sessions.all {
        client.send(beginEvent(for: running))
        guard client.isOpen else { return }
        subscription.follow(running)
      }
    }
    if clock == .virtual { client.pumpVirtual() }
  }

  func handleUnsubscribe(_ request: Request, from client: ClientConnection) throws(WireError) {
    let id = try request.requiredInteger("subscription")
    guard let subscription = client.subscription(id: id) else {
      throw WireError(
        .unknownSubscription, "no subscription \(id) on this connection (it may have ended)")
    }
    cancel(subscription, of: client)
    client.reply(id: request.id, ["subscription": .number(Double(id))])
  }
}
