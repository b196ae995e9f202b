import Testing
import TransitionWire

@testable import TransitionServer

/// Connections counted in all and per uid: one user cannot take every slot.
@Suite struct ClientQuotaTests {
  private func limits(clients: Int, perUser: Int) -> ServerLimits {
    var limits = ServerLimits()
    limits.maxClients = clients
    limits.maxClientsPerUser = perUser
    return limits
  }

  @Test func theDefaultsKeepRoomForOtherUsers() {
    let limits = ServerLimits()
    #expect(limits.maxClientsPerUser < limits.maxClients)
    #expect(limits.maxSessionsPerUser < limits.maxSessions)
    #expect(limits.maxSessionsPerClient < limits.maxSessionsPerUser)
  }

  @Test func oneUserIsStoppedAtItsShareAndOthersStillGetIn() {
    var quota = ClientQuota()
    let limits = limits(clients: 5, perUser: 2)
    #expect(quota.admit(uid: 1000, limits: limits) == nil)
    #expect(quota.admit(uid: 1000, limits: limits) == nil)
    #expect(
      quota.admit(uid: 1000, limits: limits)
        == WireError(
          .limitExceeded, "too many clients of uid 1000: the limit is 2 (limits.maxClientsPerUser)")
    )
    #expect(quota.admit(uid: 1001, limits: limits) == nil)
    #expect(quota.admit(uid: nil, limits: limits) == nil)
    #expect(quota.total == 4)
    #expect(quota.byUser[1000] == 2)
  }

  @Test func theGlobalLimitComesFirst() {
    var quota = ClientQuota()
    let limits = limits(clients: 2, perUser: 2)
    #expect(quota.admit(uid: 1, limits: limits) == nil)
    #expect(quota.admit(uid: 2, limits: limits) == nil)
    #expect(
      quota.admit(uid: 3, limits: limits)
        == WireError(.limitExceeded, "too many clients: the limit is 2 (limits.maxClients)"))
  }

  @Test func releasingGivesTheSlotBackAndIgnoresStrangers() {
    var quota = ClientQuota()
    let limits = limits(clients: 5, perUser: 1)
    #expect(quota.admit(uid: 7, limits: limits) == nil)
    #expect(quota.admit(uid: 7, limits: limits) != nil)
    quota.release(uid: 7)
    quota.release(uid: 7)
    quota.release(uid: 8)
    #expect(quota.total == 0)
    #expect(quota.byUser.isEmpty)
    #expect(quota.admit(uid: 7, limits: limits) == nil)
  }

  @Test func peersOfUnknownUIDShareOneAccount() {
    var quota = ClientQuota()
    let limits = limits(clients: 5, perUser: 1)
    #expect(quota.admit(uid: nil, limits: limits) == nil)
    #expect(quota.admit(uid: nil, limits: limits)?.message.contains("an unknown uid") == true)
  }
}

/// Sessions counted in all, per client while it is connected, and per uid until they end.
@Suite struct SessionQuotaTests {
  private func limits(total: Int = 100, perClient: Int, perUser: Int) -> ServerLimits {
    var limits = ServerLimits()
    limits.maxSessions = total
    limits.maxSessionsPerClient = perClient
    limits.maxSessionsPerUser = perUser
    return limits
  }

  @Test func eachLimitIsNamedInItsRefusal() {
    var quota = SessionQuota()
    let limits = limits(total: 3, perClient: 1, perUser: 2)
    #expect(quota.refusal(client: 1, uid: 10, limits: limits) == nil)
    quota.charge(client: 1, uid: 10)
    #expect(
      quota.refusal(client: 1, uid: 10, limits: limits)?.message
        == "too many sessions begun by this client: the limit is 1 (limits.maxSessionsPerClient)")
    quota.charge(client: 2, uid: 10)
    #expect(
      quota.refusal(client: 3, uid: 10, limits: limits)?.message
        == "too many sessions begun by uid 10: the limit is 2 (limits.maxSessionsPerUser)")
    quota.charge(client: 4, uid: 11)
    #expect(
      quota.refusal(client: 5, uid: 12, limits: limits)
        == WireError(.limitExceeded, "too many sessions: the limit is 3 (limits.maxSessions)"))
  }

  @Test func aClientThatLeftNoLongerCountsButItsUserDoes() {
    var quota = SessionQuota()
    let limits = limits(perClient: 1, perUser: 2)
    quota.charge(client: 1, uid: 10)
    quota.charge(client: 2, uid: 10)
    quota.clientLeft(1)
    #expect(quota.count(client: 1) == 0)
    #expect(quota.count(uid: 10) == 2)
    // A new connection of the same user is still held to the user's account.
    #expect(quota.refusal(client: 3, uid: 10, limits: limits)?.message.contains("PerUser") == true)
    // When the abandoned session ends, the user's account and the total go down, and the
    // connection that left is not counted again.
    quota.release(client: 1, uid: 10)
    #expect(quota.count(uid: 10) == 1)
    #expect(quota.count(client: 1) == 0)
    #expect(quota.total == 1)
    #expect(quota.refusal(client: 3, uid: 10, limits: limits) == nil)
  }

  @Test func releasingEverySessionEmptiesTheLedger() {
    var quota = SessionQuota()
    quota.charge(client: 1, uid: nil)
    quota.charge(client: 1, uid: nil)
    quota.release(client: 1, uid: nil)
    quota.release(client: 1, uid: nil)
    quota.release(client: 1, uid: nil)
    #expect(quota.total == 0)
    #expect(quota.byClient.isEmpty)
    #expect(quota.byUser.isEmpty)
  }
}
