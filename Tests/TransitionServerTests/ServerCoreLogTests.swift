import Testing
import TransitionJSON
import TransitionServerTesting

@testable import TransitionServer

/// What the core logs, and when, on the fake clock: the refusals a client can cause at will
/// (throttled to ten a second of the core's clock), slow subscribers, sessions, shutdown.
@Suite struct ServerCoreLogTests {
  @Test func refusalsAClientCausesAtWillAreTenASecondAndTheRestAreCounted() {
    let harness = CoreHarness(limits: .changed { $0.maxClientsPerUser = 2 }, logLevel: .warn)
    _ = [harness.connect(), harness.connect()]
    // Three hundred connections over the user's share in one instant, each refused.
    for _ in 0..<300 {
      let refused = harness.connect()
      #expect(refused.readLines().first?.errorCode == "limit_exceeded")
    }
    #expect(harness.log.messages(containing: "refusing client").count == 10)
    #expect(harness.log.messages(containing: "more refusals not logged").isEmpty)
    // In the same second of the core's clock, still nothing more.
    harness.clock.advance(by: 0.9)
    _ = harness.connect()
    #expect(harness.log.messages(containing: "refusing client").count == 10)
    // A second after the first: the next one is written, with the count of those held back.
    harness.clock.advance(by: 0.2)
    let late = harness.connect()
    #expect(late.readLines().first?.errorCode == "limit_exceeded")
    let refusals = harness.log.entries.filter { $0.message.contains("refusing client") }
    #expect(refusals.count == 11)
    #expect(
      refusals.last?.message.hasSuffix(
        "the limit is 2 (limits.maxClientsPerUser) (291 more refusals not logged)") == true,
      "\(refusals.last?.message ?? "")")
    #expect(refusals.last?.level == .warn)
    #expect(refusals.last?.time == harness.clock.now)
    #expect(refusals.first?.time == 1_000)
  }

  @Test func aLineLeftUnfinishedIsLogged() {
    let harness = CoreHarness(logLevel: .warn)
    let peer = harness.connect()
    harness.core.peerLeftLineUnfinished(peer, seconds: 0.5)
    #expect(
      harness.log.messages(
        containing: "left a request line unfinished for more than 0.5 s; closing")
        == [
          "client 1 (pid 100, uid 1000) left a request line unfinished for more than 0.5 s; "
            + "closing"
        ])
  }

  @Test func aRefusedAdminOpIsLogged() {
    let harness = CoreHarness(logLevel: .warn)
    let user = harness.connect()
    let reply = harness.reply(#"{"op":"route","operation":"push","animator":"x"}"#, from: user)
    #expect(reply.errorCode == "forbidden")
    #expect(
      harness.log.messages(containing: "refused admin op", at: .warn)
        == ["refused admin op route from client 1 (pid 100, uid 1000)"])
  }

  /// Client 2 subscribes to a crossfade of client 1 and reads nothing: past the soft limit for
  /// longer than its grace, or past the hard limit at once, it is disconnected with one
  /// warning naming the limit.
  @Test(arguments: [
    (
      ServerLimits.changed {
        $0.subscriberSoftLimitBytes = 1_000
        $0.subscriberSoftLimitSeconds = 2
      }, 3.0, "over the soft limit of 1000 unsent bytes for more than 2"
    ),
    (
      ServerLimits.changed {
        $0.subscriberSoftLimitBytes = 200
        $0.subscriberHardLimitBytes = 200
      }, 0.0, "over the hard limit of 200"
    ),
  ])
  func aSlowSubscriberIsLoggedWithTheLimitItPassed(
    limits: ServerLimits, seconds: Double, reason: String
  ) {
    let harness = CoreHarness(limits: limits, logLevel: .warn)
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 10)
    let slow = harness.connect()
    harness.core.receive(
      line: Array(#"{"op":"subscribe","session":"\#(id)","fps":10}"#.utf8), from: slow)
    harness.clock.advance(by: seconds)
    #expect(!slow.isOpen)
    let warnings = harness.log.messages(containing: "disconnecting slow client 2", at: .warn)
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains(reason) == true, "\(warnings)")
  }

  @Test func sessionsAndShutdownAreLoggedAtInfo() {
    let harness = CoreHarness(logLevel: .info)
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 0.5)
    harness.clock.advance(by: 1)
    #expect(harness.log.messages(containing: "session \(id) finished", at: .info).count == 1)
    harness.core.shutDown(reason: "SIGTERM")
    #expect(
      harness.log.messages(containing: "stopping (SIGTERM)", at: .info)
        == ["stopping (SIGTERM): 1 clients, 0 sessions"])
    // Nothing at debug was built or written.
    #expect(harness.log.entries.allSatisfy { $0.level <= .info })
  }
}
