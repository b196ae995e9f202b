import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// `hello`, `animators`, `routes`, `route` and `stats` against the real daemon.
@Suite struct DaemonHandshakeTests {
  @Test func helloNamesServerAndProtocol() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try client.request(["op": "hello"]).object
    #expect(try reply.string("server") == "transitiond")
    #expect(try reply.int("protocol") == 1)
    #expect(try reply.string("version") == "0.1.0")
    #expect(try reply.int("pid") == Int(daemon.pid))
    #expect(try reply.bool("admin"))
  }

  @Test func helloStatesTheClientsNameWhichSessionsStatsAndTheLogShow() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let hello = try client.rawReply([
      "op": "hello", "client": "my-renderer", "protocol": 1,
    ])
    #expect(hello.ok, "\(hello.line)")
    let begun = try client.rawReply([
      "op": "begin", "animator": "crossfade", "duration": 30,
      "context": .object(DaemonScenes.present()),
    ])
    #expect(begun.ok, "\(begun.line)")
    let sessions = try client.rawReply(["op": "sessions"]).fields["sessions"]?.arrayValue ?? []
    #expect(sessions.first?["client"]?.stringValue == "my-renderer", "\(sessions)")
    let stats = try client.rawReply(["op": "stats"])
    let listed = stats.fields["stats"]?["clients"]?.arrayValue ?? []
    #expect(listed.contains { $0["client"]?.stringValue == "my-renderer" }, "\(stats.line)")
    #expect(
      DaemonHarness.waitUntil { daemon.log.contains(#""my-renderer""#) }, "\(daemon.log)")
    // A client that gives no name is listed without one.
    let other = try daemon.client()
    _ = try other.rawReply(["op": "hello"])
    let again = try other.rawReply(["op": "stats"]).fields["stats"]?["clients"]?.arrayValue
    #expect(again?.count == 2)
    #expect(again?.filter { $0["client"] == nil }.count == 1)
  }

  @Test func anUnsupportedProtocolIsRefusedNamingTheVersionsSpoken() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let refused = try client.rawReply(["op": "hello", "client": "future", "protocol": 2])
    #expect(refused.errorCode == "unsupported_protocol", "\(refused.line)")
    #expect(refused.errorMessage?.contains("speaks protocol 1") == true, "\(refused.line)")
    for (members, code) in [
      (["client": JSONValue.string("")], "bad_request"),
      (["client": .string(String(repeating: "x", count: 65))], "bad_request"),
      (["client": .string("tab\there")], "bad_request"),
      (["client": .number(3)], "bad_request"),
      (["protocol": .number(1.5)], "bad_request"),
      (["protocol": .string("1")], "bad_request"),
    ] {
      let reply = try client.rawReply(members.merging(["op": "hello"]) { $1 })
      #expect(reply.errorCode == code, "\(members): \(reply.line)")
    }
    // The connection carries on.
    #expect(try client.rawReply(["op": "hello", "protocol": 1]).ok)
  }

  @Test func replyEchoesStringID() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    try client.sendLine(#"{"op":"hello","id":"abc"}"#)
    let reply = try client.nextReply(timeout: .seconds(20))
    #expect(reply.line.contains(#""id":"abc""#))
    #expect(reply.ok)
  }

  @Test func animatorsListsThePluginsAndRoutes() throws {
    let daemon = try DaemonProcess()
    let reply = try daemon.client().request(["op": "animators"]).object
    let animators = try reply.objects("animators")
    let byName = Dictionary(uniqueKeysWithValues: try animators.map { (try $0.string("name"), $0) })
    #expect(
      Set(byName.keys).isSuperset(of: ["album-flip", "zoom-present", "default-slide", "crossfade"]))
    #expect(try byName["album-flip"]?.strings("operations") == ["push", "pop"])
    #expect(try byName["zoom-present"]?.strings("operations") == ["present", "dismiss"])
    #expect(
      try byName["default-slide"]?.strings("operations") == ["push", "pop", "present", "dismiss"])
    #expect(try byName["crossfade"]?.strings("operations") == ["present", "dismiss"])
    #expect(try byName["crossfade"]?.string("path").hasSuffix("libCrossfade.so") == true)
    let routes = try reply.object("routes")
    #expect(try routes.string("push") == "album-flip")
    #expect(try routes.string("pop") == "album-flip")
    #expect(try routes.string("present") == "zoom-present")
    #expect(try routes.string("dismiss") == "zoom-present")
  }

  @Test func routeSwitchesTheAnimatorUsedByBegin() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let before = try client.begin(context: DaemonScenes.present())
    #expect(before.animator == "zoom-present")
    let routes = try client.route(operation: "present", animator: "crossfade")
    #expect(routes["present"] == "crossfade")
    #expect(try client.routes()["present"] == "crossfade")
    let after = try client.begin(context: DaemonScenes.present())
    #expect(after.animator == "crossfade")
    #expect(after.fallback == false)
  }

  @Test func routeRefusesWhatCannotServe() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(
      try client.errorCode(["op": "route", "operation": "push", "animator": "crossfade"])
        == "unsupported_operation")
    #expect(
      try client.errorCode(["op": "route", "operation": "push", "animator": "nope"])
        == "unknown_animator")
    #expect(
      try client.errorCode(["op": "route", "operation": "fly", "animator": "default-slide"])
        == "bad_request")
    #expect(try client.routes()["push"] == "album-flip")
  }

  @Test func statsCountConnectionsSessionsAndFrames() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let initial = try client.request(["op": "stats"]).object.object("stats").object("connections")
    let other = try daemon.client()
    _ = try other.hello()
    let session = try client.begin(
      context: DaemonScenes.plainPush(), duration: 0.5, interactive: true)
    _ = try client.subscribe(session: session.session, fps: 10, clock: .virtual)
    let (frames, finished) = try client.framesUntilComplete(session: session.session)
    #expect(finished)
    _ = try client.control(session: session.session, action: .finish(velocity: nil))
    let stats = try client.request(["op": "stats"]).object.object("stats")
    #expect(try stats.object("connections").int("current") == 2)
    #expect(try stats.object("connections").int("total") == initial.int("total") + 1)
    #expect(try stats.object("frames").int("sent") == frames.count)
    #expect(try stats.object("frames").int("coalesced") == 0)
    #expect(try stats.object("animators").int("default-slide") == 1)
    #expect(try stats.object("bytes").int("sent") > 0)
    #expect(try stats.object("bytes").int("received") > 0)
    #expect(try stats.double("uptime") >= 0)
    // The session completes on its own clock, whatever the virtual reader did.
    let completed = try DaemonHarness.waitUntil {
      let sessions = try client.request(["op": "stats"]).object.object("stats").object("sessions")
      return try sessions.int("completed") == 1 && sessions.int("active") == 0
    }
    #expect(completed)
  }
}
