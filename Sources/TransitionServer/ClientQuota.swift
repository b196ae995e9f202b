import TransitionWire

/// Who may connect, by count: at most `limits.maxClients` connections in all and
/// `limits.maxClientsPerUser` per uid, so that one user cannot take every slot (as dbus-broker
/// charges each connection to its user). Peers whose uid is unknown share one account.
///
/// A pure ledger: the daemon asks ``admit(uid:limits:)`` for every accepted socket and calls
/// ``release(uid:)`` when an admitted one closes.
struct ClientQuota {
  /// Admitted connections in all.
  private(set) var total = 0
  /// Admitted connections per uid (nil: unknown).
  private(set) var byUser: [UInt32?: Int] = [:]

  /// Counts a new connection of `uid` when both limits allow it.
  ///
  /// - Returns: nil when admitted, else the `limit_exceeded` error naming the limit.
  mutating func admit(uid: UInt32?, limits: ServerLimits) -> WireError? {
    if let refusal = refusal(uid: uid, limits: limits) { return refusal }
    total += 1
    byUser[uid, default: 0] += 1
    return nil
  }

  /// Why a new connection of `uid` would be refused, or nil.
  func refusal(uid: UInt32?, limits: ServerLimits) -> WireError? {
    if total >= limits.maxClients {
      return WireError(
        .limitExceeded, "too many clients: the limit is \(limits.maxClients) (limits.maxClients)")
    }
    let mine = byUser[uid] ?? 0
    if mine >= limits.maxClientsPerUser {
      return WireError(
        .limitExceeded,
        "too many clients of \(Self.describe(uid)): the limit is \(limits.maxClientsPerUser) "
          + "(limits.maxClientsPerUser)")
    }
    return nil
  }

  /// Forgets an admitted connection of `uid` that closed.
  mutating func release(uid: UInt32?) {
    guard let count = byUser[uid], count > 0 else { return }
    total -= 1
    byUser[uid] = count == 1 ? nil : count - 1
  }

  /// `uid 1000`, or `unknown uid`.
  static func describe(_ uid: UInt32?) -> String {
    uid.map { "uid \($0)" } ?? "an unknown uid"
  }
}
