import Foundation
import Glibc
import Testing
import TransitionClient
import UnixIO

@testable import IntegrationSupport

/// Fair shares: one client, or one user, cannot lock the others out (docs/limits.md).
@Suite struct DaemonFairShareTests {
  /// A client of `daemon` that holds a slot once the daemon has seen the start-up probe's
  /// connection close, so that it is the only connection counted.
  static func onlyClient(of daemon: DaemonProcess) throws -> DaemonClient {
    let client = try daemon.client()
    let settled = try DaemonHarness.waitUntil {
      try client.stats()["connections.current"] == 1
    }
    guard settled else { throw DaemonHarnessError("the start-up probe is still connected") }
    return client
  }

  @Test func halfOpenLinesAreClosedAndTheirSlotsFreed() throws {
    let daemon = try DaemonProcess(
      config: #"{"limits": {"maxClients": 3, "partialLineSeconds": 0.5}}"#)
    // Every slot is taken: one by an idle client, the others by connections that send half
    // a line and nothing more.
    let idle = try Self.onlyClient(of: daemon)
    let stalled = try (0..<2).map { _ in try BlockingLineSocket(path: daemon.socketPath) }
    for socket in stalled { try socket.sendRaw(#"{"op":"hel"#) }
    // Each half line times out: the client is told why and disconnected.
    for socket in stalled {
      let line = try socket.daemonLine()
      #expect(line.contains(#""code":"limit_exceeded""#), "\(line)")
      #expect(line.contains("(limits.partialLineSeconds)"), "\(line)")
      #expect(throws: DaemonHarnessError.self) { try socket.daemonLine() }
    }
    // The slots are free again; the idle client (no unfinished line) stays.
    #expect(
      DaemonHarness.waitUntil { (try? daemon.client().hello().server) == "transitiond" })
    #expect(try idle.hello().server == "transitiond")
    // The log line it causes: ServerCoreLogTests.aLineLeftUnfinishedIsLogged.
  }

  @Test func oneUserCannotTakeEverySlot() throws {
    let daemon = try DaemonProcess(
      config: #"{"limits": {"maxClients": 8, "maxClientsPerUser": 3}}"#)
    let held = try [Self.onlyClient(of: daemon)] + (0..<2).map { _ in try daemon.client() }
    for client in held { #expect(try client.hello().server == "transitiond") }
    let refused = try BlockingLineSocket(path: daemon.socketPath)
    let refusal = try refused.daemonLine()
    #expect(refusal.contains(#""code":"limit_exceeded""#))
    #expect(refusal.contains("the limit is 3 (limits.maxClientsPerUser)"), "\(refusal)")
    #expect(throws: DaemonHarnessError.self) { try refused.daemonLine() }
    // A slot freed by its user can be taken again.
    held[0].close()
    #expect(
      DaemonHarness.waitUntil { (try? daemon.client().hello().server) == "transitiond" })
  }

  /// The log lines these refusals cause, at most ten a second with the count of the others:
  /// ServerCoreLogTests.refusalsAClientCausesAtWillAreTenASecondAndTheRestAreCounted.
  @Test func everyConnectionOverTheShareIsRefusedAndTheDaemonServesOn() throws {
    let daemon = try DaemonProcess(config: #"{"limits": {"maxClientsPerUser": 2}}"#)
    let held = try [Self.onlyClient(of: daemon), daemon.client()]
    for client in held { #expect(try client.hello().server == "transitiond") }
    // Three hundred connections over the user's share, each refused and closed.
    for _ in 0..<300 {
      let refused = try BlockingLineSocket(path: daemon.socketPath)
      #expect(try refused.daemonLine().contains(#""code":"limit_exceeded""#))
    }
    for client in held { #expect(try client.hello().server == "transitiond") }
  }

  @Test func aTricklingClientDoesNotExtendItsLine() throws {
    let daemon = try DaemonProcess(config: #"{"limits": {"partialLineSeconds": 0.5}}"#)
    let socket = try BlockingLineSocket(path: daemon.socketPath)
    // One byte at a time, each well within the timeout of the one before (the next goes when
    // no reply has come for 50 ms): the line is still timed from its first byte.
    var sent = 0
    var reply: String?
    while reply == nil, sent < 200 {
      try? socket.sendRaw("x")
      sent += 1
      reply = (try? socket.readLine(deadline: .now + .milliseconds(50))).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    let line = try #require(reply)
    #expect(line.contains("(limits.partialLineSeconds)"))
  }

  @Test func sessionQuotasPerClientAndPerUser() throws {
    let daemon = try DaemonProcess(
      config: """
        {"limits": {"maxSessions": 100, "maxSessionsPerClient": 2, "maxSessionsPerUser": 3,
                    "maxSessionSeconds": 600}}
        """)
    let first = try daemon.client()
    _ = try first.begin(context: DaemonScenes.plainPush(), duration: 600)
    _ = try first.begin(context: DaemonScenes.plainPush(), duration: 600)
    let perClient = try first.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()),
    ])
    #expect(perClient.errorCode == "limit_exceeded")
    #expect(perClient.errorMessage?.contains("(limits.maxSessionsPerClient)") == true)

    let second = try daemon.client()
    _ = try second.begin(context: DaemonScenes.plainPush(), duration: 600)
    let perUser = try second.rawReply(["op": "begin", "context": .object(DaemonScenes.plainPush())])
    #expect(perUser.errorCode == "limit_exceeded")
    #expect(perUser.errorMessage?.contains("(limits.maxSessionsPerUser)") == true)

    // Leaving does not reset the user's account: the first client's running sessions go on
    // and still count against its uid.
    first.close()
    let third = try daemon.client()
    let stillCounted = try third.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()),
    ])
    #expect(stillCounted.errorMessage?.contains("(limits.maxSessionsPerUser)") == true)
    #expect(try third.sessions().count == 3)
    // Once one ends, the user may begin another.
    let running = try second.sessions()
    try second.end(session: running[0].session)
    _ = try second.begin(context: DaemonScenes.plainPush(), duration: 1)
  }

  @Test func anAbandonedInteractiveSessionIsCancelledAndFreesItsSlot() throws {
    let daemon = try DaemonProcess(
      config: #"{"limits": {"maxSessionsPerClient": 1, "maxSessionsPerUser": 1}}"#)
    let watcher = try daemon.client()
    let owner = try daemon.client()
    let session = try owner.begin(context: DaemonScenes.plainPush(), interactive: true).session
    #expect(
      try watcher.rawReply(["op": "begin", "context": .object(DaemonScenes.plainPush())]).errorCode
        == "limit_exceeded")
    owner.close()
    // Nobody is left to drive it: it is cancelled, and the user's slot is free again.
    #expect(
      DaemonHarness.waitUntil {
        (try? watcher.sessions().contains { $0.session == session }) == false
      })
    _ = try watcher.begin(context: DaemonScenes.plainPush(), duration: 0.1)
  }

  @Test func aSessionLongerThanTheLimitIsRefused() throws {
    let daemon = try DaemonProcess(config: #"{"limits": {"maxSessionSeconds": 60}}"#)
    let client = try daemon.client()
    let long = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()), "duration": 61,
    ])
    #expect(long.errorCode == "limit_exceeded")
    #expect(long.errorMessage?.contains("(limits.maxSessionSeconds)") == true)
    #expect(try client.begin(context: DaemonScenes.plainPush(), duration: 60).duration == 60)
    // The default keeps the hour the protocol always allowed, and no more.
    let defaults = try DaemonProcess()
    let other = try defaults.client()
    #expect(
      try other.rawReply([
        "op": "begin", "context": .object(DaemonScenes.plainPush()), "duration": 3601,
      ])
      .errorMessage?.contains("(limits.maxSessionSeconds)") == true)
  }
}
