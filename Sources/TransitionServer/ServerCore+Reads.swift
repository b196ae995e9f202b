import TransitionJSON
import TransitionKit
import TransitionWire

/// The read ops, open to every client: `hello`, `animators`, `sessions`, `stats` (`routes`
/// is one line in the handler table).
extension ServerCore {
  func hello(_ greeting: ClientGreeting, id: RequestID?, from client: Client) {
    if let name = greeting.name, name != client.name {
      client.name = name
      logger.info("\(client) says hello")
    }
    var fields: [String: JSONValue] = [
      "server": .string("transitiond"), "version": .string(Self.version),
      "protocol": .number(Double(Self.protocolVersion)), "pid": .number(Double(processID)),
      "admin": .bool(adminPolicy.isAdmin(client.identity)),
      "features": .array(Feature.allCases.map { .string($0.rawValue) }),
    ]
    if let viewerURL { fields["viewer"] = .string(viewerURL) }
    client.reply(id: id, fields)
  }

  func listAnimators(id: RequestID?, from client: Client) {
    let list: [JSONValue] = animators.animators.map { animator in
      var fields: [String: JSONValue] = [
        "name": .string(animator.name),
        "operations": .array(animator.orderedOperations.map { .string($0.rawValue) }),
        "plugin": .string(animator.pluginName), "version": .string(animator.pluginVersion),
        "duration": .number(animator.defaultDuration), "path": .string(animator.libraryPath),
        "quarantined": .bool(animators.isQuarantined(animator.name)),
        "kind": .string(animator.kind.rawValue), "reduced": .bool(animator.hasReducedForm),
      ]
      if !animator.parameters.isEmpty {
        fields["params"] = .object(
          Dictionary(
            uniqueKeysWithValues: animator.parameters.map { parameter in
              (
                parameter.name,
                JSONValue.object([
                  "default": .number(parameter.defaultValue),
                  "min": .number(parameter.range.lowerBound),
                  "max": .number(parameter.range.upperBound),
                ])
              )
            }))
      }
      if let error = animator.error { fields["error"] = .string(error) }
      if let fileVersion = animator.fileVersion { fields["fileVersion"] = .string(fileVersion) }
      return .object(fields)
    }
    var members = animators.listingMembers
    members["animators"] = .array(list)
    members["routes"] = routes.json
    client.reply(id: id, members)
  }

  func listSessions(id: RequestID?, from client: Client) {
    let now = clock.now
    let list: [JSONValue] = sessions.all.map { session in
      var members: [String: JSONValue] = [
        "session": .string(session.id), "animator": .string(session.animatorName),
        "operation": .string(session.operation.rawValue), "state": .string(session.stateName),
        "progress": .number(session.progress(at: now)), "duration": .number(session.duration),
        "t": .number(now - session.startTime), "interactive": .bool(session.interactive),
        "subscribers": .number(Double(session.subscriberCount)),
      ]
      if let owner = clients[session.ownerPeerID]?.name { members["client"] = .string(owner) }
      if let touch = session.touch {
        members["touch"] = .array([.number(touch.x), .number(touch.y)])
      }
      return .object(members)
    }
    client.reply(id: id, ["sessions": .array(list)])
  }

  func reportStats(id: RequestID?, from client: Client) {
    let subscriptions = clients.values.reduce(0) { $0 + $1.subscriptions.count }
    var report = stats.json(
      now: clock.now, activeSessions: sessions.count, subscriptions: subscriptions,
      scheduledTimers: clock.scheduledTimerCount)
    if case .object(var members) = report {
      members["clients"] = .array(
        clients.values.sorted { $0.id < $1.id }.map { listed in
          var entry: [String: JSONValue] = [
            "id": .number(Double(listed.id)),
            "subscriptions": .number(Double(listed.subscriptions.count)),
          ]
          if let name = listed.name { entry["client"] = .string(name) }
          if let uid = listed.identity?.uid { entry["uid"] = .number(Double(uid)) }
          return .object(entry)
        })
      if let display = displayReport() { members["display"] = display }
      report = .object(members)
    }
    client.reply(id: id, ["stats": report])
  }

  /// The most display-paced subscriptions `stats` lists one by one.
  static let listedDisplaySubscriptions = 64

  /// `stats.display`, while any subscription is display-paced: how many are, and the first
  /// ``listedDisplaySubscriptions`` of them (by connection, then subscription) with their
  /// timing in force and what their `presented` reports showed (phase errors in
  /// milliseconds); nil otherwise.
  private func displayReport() -> JSONValue? {
    var count = 0
    var listed: [JSONValue] = []
    for holder in clients.values.sorted(by: { $0.id < $1.id }) {
      for subscription in holder.subscriptions {
        guard let display = subscription.display else { continue }
        count += 1
        guard listed.count < Self.listedDisplaySubscriptions else { continue }
        let lock = subscription.phaseLock
        func milliseconds(_ seconds: Double?) -> JSONValue {
          .number(((seconds ?? 0) * 1e6).rounded() / 1e3)
        }
        listed.append(
          .object([
            "subscription": .number(Double(subscription.id)),
            "period": .number(display.period), "lead": .number(display.lead),
            "presented": .number(Double(lock?.reports ?? 0)),
            "late": .number(Double(lock?.lateFrames ?? 0)),
            "phaseError": milliseconds(lock?.phaseError),
            "lastPhaseError": milliseconds(lock?.lastPhaseError),
            "maxPhaseError": milliseconds(lock?.maximumPhaseError),
          ]))
      }
    }
    guard count > 0 else { return nil }
    return .object(["subscriptions": .number(Double(count)), "streams": .array(listed)])
  }
}
