import TransitionWire

/// Who may begin a session, by count: at most `limits.maxSessions` running in all,
/// `limits.maxSessionsPerClient` begun by one connection while it stays connected, and
/// `limits.maxSessionsPerUser` begun by one uid, connected or not (so that reconnecting does
/// not reset a user's account). Modelled on dbus-broker's per-user quotas and Redis's client
/// limits.
///
/// A pure ledger: the daemon asks ``refusal(client:uid:limits:)`` before `begin`, calls
/// ``charge(client:uid:)`` when a session starts, ``release(client:uid:)`` when it completes,
/// and ``clientLeft(_:)`` when a connection closes; from then on its running sessions count
/// against its uid only.
struct SessionQuota {
  /// Running sessions in all.
  private(set) var total = 0
  /// Running sessions per connected client.
  private(set) var byClient: [UInt64: Int] = [:]
  /// Running sessions per uid (nil: unknown).
  private(set) var byUser: [UInt32?: Int] = [:]

  /// Why `client` of `uid` may not begin one more session, or nil when it may.
  func refusal(client: UInt64, uid: UInt32?, limits: ServerLimits) -> WireError? {
    if total >= limits.maxSessions {
      return WireError(
        .limitExceeded,
        "too many sessions: the limit is \(limits.maxSessions) (limits.maxSessions)")
    }
    if byClient[client] ?? 0 >= limits.maxSessionsPerClient {
      return WireError(
        .limitExceeded,
        "too many sessions begun by this client: the limit is \(limits.maxSessionsPerClient) "
          + "(limits.maxSessionsPerClient)")
    }
    if byUser[uid] ?? 0 >= limits.maxSessionsPerUser {
      return WireError(
        .limitExceeded,
        "too many sessions begun by \(ClientQuota.describe(uid)): the limit is "
          + "\(limits.maxSessionsPerUser) (limits.maxSessionsPerUser)")
    }
    return nil
  }

  /// Counts a session that `client` of `uid` began.
  mutating func charge(client: UInt64, uid: UInt32?) {
    total += 1
    byClient[client, default: 0] += 1
    byUser[uid, default: 0] += 1
  }

  /// Forgets a session that completed; `client` is the connection that began it.
  mutating func release(client: UInt64, uid: UInt32?) {
    total = max(total - 1, 0)
    if let count = byClient[client] { byClient[client] = count <= 1 ? nil : count - 1 }
    if let count = byUser[uid] { byUser[uid] = count <= 1 ? nil : count - 1 }
  }

  /// The connection `client` closed: its running sessions no longer count against it (they
  /// still count against its uid and in all until they complete).
  mutating func clientLeft(_ client: UInt64) {
    byClient[client] = nil
  }

  /// Running sessions begun by `client` while connected.
  func count(client: UInt64) -> Int { byClient[client] ?? 0 }

  /// Running sessions begun by `uid`.
  func count(uid: UInt32?) -> Int { byUser[uid] ?? 0 }
}
