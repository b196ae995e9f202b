import Testing
import TransitionJSON
import TransitionServerTesting

@testable import TransitionServer

/// A subscription holds its client strongly until it ends or is cancelled, and a stream's
/// members hold their clients: whatever way a client leaves, nothing of it is kept after.
@Suite struct ClientLifetimeTests {
  /// `peer`'s client in `harness`, held weakly.
  private final class WeakClient {
    weak var client: Client?
    init(_ client: Client?) { self.client = client }
  }

  @Test func aClientThatDisconnectsWithEveryKindOfSubscriptionIsFreed() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let session = harness.beginCrossfade(from: owner, duration: 5)
    let reader = harness.connect()
    for (id, line) in [
      #""session":"\#(session)","fps":60"#,
      #""session":"\#(session)","fps":30,"encoding":"delta""#,
      #""session":"*","fps":60"#,
      #""session":"\#(session)","fps":60,"clock":"virtual""#,
    ].enumerated() {
      #expect(
        harness.reply(#"{"id":\#(id),"op":"subscribe",\#(line)}"#, from: reader)["ok"]
          == .bool(true))
    }
    harness.clock.advance(by: 0.1)
    #expect(!reader.readLines().isEmpty)
    let held = WeakClient(harness.core.clients[reader.id])
    #expect(held.client != nil)
    reader.disconnect()
    harness.clock.advance(by: 0.1)
    #expect(held.client == nil)
    // The session streams on to nobody, and its owner is still served.
    #expect(
      harness.reply(#"{"id":9,"op":"pause","session":"\#(session)"}"#, from: owner)["ok"]
        == .bool(true))
  }

  @Test func aClientDroppedByItsFirstFrameIsFreed() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let session = harness.beginCrossfade(from: owner, duration: 5)
    let reader = harness.connect()
    let held = WeakClient(harness.core.clients[reader.id])
    reader.closesOnFrame = true
    harness.send(#"{"id":1,"op":"subscribe","session":"\#(session)","fps":60}"#, from: reader)
    #expect(!reader.isOpen)
    harness.clock.advance(by: 0.1)
    #expect(held.client == nil)
  }

  @Test func aSubscriptionThatEndsWithItsSessionLetsGoOfItsClient() {
    let harness = CoreHarness()
    let owner = harness.connect()
    let session = harness.beginCrossfade(from: owner, duration: 0.2)
    let reader = harness.connect()
    #expect(
      harness.reply(#"{"id":1,"op":"subscribe","session":"\#(session)","fps":60}"#, from: reader)[
        "ok"] == .bool(true))
    let client = harness.core.clients[reader.id]
    #expect(client?.subscriptions.count == 1)
    let subscription = client?.subscriptions.first
    harness.clock.advance(by: 0.5)
    #expect(reader.readLines().last?["event"] == .string("complete"))
    #expect(client?.subscriptions.isEmpty == true)
    #expect(subscription?.client == nil)
  }
}
