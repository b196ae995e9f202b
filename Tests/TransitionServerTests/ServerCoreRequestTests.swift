import PluginLoader
import PluginValues
import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting
import TransitionWire

@testable import TransitionServer

/// One line in, one reply out: parsing, the op table, field decoding and the admin rule, each
/// refused in one place with the code docs/protocol.md gives.
@Suite struct ServerCoreRequestTests {
  @Test func helloSaysWhetherThePeerIsAnAdmin() {
    let harness = CoreHarness()
    let user = harness.reply(#"{"id":1,"op":"hello"}"#, from: harness.connect())
    #expect(user["ok"] == .bool(true))
    #expect(user["id"] == .number(1))
    #expect(user["server"] == .string("transitiond"))
    #expect(user["protocol"] == .number(1))
    #expect(user["pid"] == .number(Double(CoreHarness.processID)))
    #expect(user["admin"] == .bool(false))
    let admin = harness.reply(
      #"{"op":"hello"}"#, from: harness.connect(uid: CoreHarness.daemonUID))
    #expect(admin["admin"] == .bool(true))
    #expect(admin["id"] == nil)
    let anonymous = harness.reply(#"{"op":"hello"}"#, from: harness.connect(uid: nil))
    #expect(anonymous["admin"] == .bool(false))
  }

  @Test func helloListsTheFeaturesThisDaemonSpeaks() {
    let harness = CoreHarness()
    let reply = harness.reply(#"{"op":"hello"}"#, from: harness.connect())
    #expect(reply["features"] == .array(Feature.allCases.map { .string($0.rawValue) }))
    #expect(Feature.allCases.contains(.strictRequests))
  }

  /// Every op refuses a member it does not take, naming it and what the op takes, before any
  /// handler runs: a misspelt `interactive` never begins a running session.
  @Test func unknownMembersAreRefusedNamingThem() {
    let harness = CoreHarness()
    let admin = harness.connect(uid: CoreHarness.daemonUID)
    let misspelt = harness.reply(
      #"{"id":1,"op":"begin","interactve":true,"context":{}}"#, from: admin)
    #expect(misspelt.errorCode == "bad_request")
    #expect(misspelt["id"] == .number(1))
    #expect(
      misspelt["error"]?["message"]
        == .string(
          "interactve is not a member of begin"
            + " (begin takes context, animator, duration, interactive, session, params, touch, reduceMotion, interrupts)"
        ))
    #expect(harness.core.sessions.all.isEmpty)
    let hello = harness.reply(#"{"op":"hello","verbose":true}"#, from: admin)
    #expect(
      hello["error"]?["message"]
        == .string("verbose is not a member of hello (hello takes client, protocol)"))
    for op in Op.allCases {
      let reply = harness.reply(#"{"op":"\#(op.rawValue)","zzz":1}"#, from: admin)
      #expect(reply.errorCode == "bad_request", "\(op.rawValue)")
      #expect(
        reply["error"]?["message"]?.stringValue?.hasPrefix("zzz is not a member of \(op.rawValue)")
          == true, "\(op.rawValue)")
    }
  }

  @Test func badLinesGetOneErrorReplyEach() {
    let harness = CoreHarness()
    let peer = harness.connect()
    #expect(harness.reply("{not json", from: peer).errorCode == "invalid_json")
    #expect(harness.reply("[1]", from: peer).errorCode == "bad_request")
    let unknown = harness.reply(#"{"id":"x","op":"fly"}"#, from: peer)
    #expect(unknown.errorCode == "unknown_op")
    #expect(unknown["id"] == .string("x"))
    #expect(unknown["error"]?["message"] == .string(#"unknown op "fly""#))
    let fps = harness.reply(#"{"id":3,"op":"subscribe","session":"*","fps":"fast"}"#, from: peer)
    #expect(fps.errorCode == "bad_request")
    #expect(fps["error"]?["message"] == .string("fps must be a number"))
    #expect(harness.send(#"{"op":"update","session":"s1"}"#, from: peer).count == 1)
    // The connection stays usable.
    #expect(harness.reply(#"{"op":"routes"}"#, from: peer)["ok"] == .bool(true))
  }

  @Test func adminOpsAreRefusedBeforeTheirFieldsAreRead() {
    let harness = CoreHarness()
    let user = harness.connect()
    for line in [#"{"op":"route"}"#, #"{"op":"reload"}"#, #"{"op":"end","session":"s1"}"#] {
      #expect(harness.reply(line, from: user).errorCode == "forbidden", "\(line)")
    }
    let admin = harness.connect(uid: CoreHarness.daemonUID)
    #expect(harness.reply(#"{"op":"route"}"#, from: admin).errorCode == "bad_request")
  }

  @Test func routeSwitchesOneOperationForAnAdmin() {
    let harness = CoreHarness()
    let admin = harness.connect(uid: 0)
    let reply = harness.reply(
      #"{"op":"route","operation":"present","animator":"crossfade"}"#, from: admin)
    #expect(reply["routes"]?["present"] == .string("crossfade"))
    #expect(reply["routes"]?["push"] == .string("album-flip"))
    let unsupported = harness.reply(
      #"{"op":"route","operation":"push","animator":"crossfade"}"#, from: admin)
    #expect(unsupported.errorCode == "unsupported_operation")
    let unknown = harness.reply(
      #"{"op":"route","operation":"push","animator":"nope"}"#, from: admin)
    #expect(unknown.errorCode == "unknown_animator")
  }

  @Test func reloadRunsTheDaemonsHandler() {
    let harness = CoreHarness()
    let admin = harness.connect(uid: CoreHarness.daemonUID)
    #expect(harness.reply(#"{"op":"reload"}"#, from: admin).errorCode == "reload_failed")
    var reloads = 0
    harness.core.reloadHandler = { answer in
      reloads += 1
      answer(
        .success(
          ReloadOutcome(
            animators: 7,
            diagnostics: [
              PluginDiagnostic(.libraryChanged, .warning, path: "/p/libX.so", "libX changed")
            ])))
    }
    let reply = harness.reply(#"{"op":"reload"}"#, from: admin)
    #expect(reply["animators"] == .number(7))
    #expect(
      reply["diagnostics"]
        == .array([
          .object([
            "code": .string("library_changed"), "severity": .string("warning"),
            "message": .string("libX changed"),
          ])
        ]))
    #expect(reloads == 1)
  }

  /// `reload` answers when the daemon's handler does (after the plugin host's rescan), and
  /// the client's later requests wait for that answer, so replies keep their order.
  @Test func reloadAnswersAfterTheRescanAndLaterRequestsWait() {
    let harness = CoreHarness()
    let admin = harness.connect(uid: CoreHarness.daemonUID)
    var answer: ((Result<ReloadOutcome, WireError>) -> Void)?
    harness.core.reloadHandler = { answer = $0 }
    #expect(harness.send(#"{"id":1,"op":"reload"}"#, from: admin).isEmpty)
    #expect(harness.send(#"{"id":2,"op":"routes"}"#, from: admin).isEmpty)
    // Another client is not held up.
    #expect(harness.reply(#"{"op":"routes"}"#, from: harness.connect())["ok"] == .bool(true))
    answer?(.success(ReloadOutcome(animators: 3)))
    let replies = admin.readLines()
    #expect(replies.map { $0["id"] } == [.number(1), .number(2)])
    #expect(replies.first?["animators"] == .number(3))
    var failing: ((Result<ReloadOutcome, WireError>) -> Void)?
    harness.core.reloadHandler = { failing = $0 }
    #expect(harness.send(#"{"id":3,"op":"reload"}"#, from: admin).isEmpty)
    failing?(.failure(WireError(.reloadFailed, "the plugin host could not start")))
    #expect(admin.readLines().first?.errorCode == "reload_failed")
  }

  @Test func animatorsListsTheLoadedAnimatorsAndRoutes() {
    let harness = CoreHarness()
    let reply = harness.reply(#"{"op":"animators"}"#, from: harness.connect())
    let names = reply["animators"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    #expect(names.contains("crossfade"))
    #expect(names.contains("default-slide"))
    #expect(reply["routes"]?["dismiss"] == .string("zoom-present"))
  }

  @Test func anOverlongLineIsRefusedAndThePeerClosedAfterTheReply() {
    let harness = CoreHarness()
    let peer = harness.connect()
    harness.core.peerSentOverlongLine(peer)
    #expect(peer.readLines().map(\.errorCode) == ["line_too_long"])
    #expect(!peer.isOpen)
    #expect(peer.closedAfterFlush)
    #expect(harness.core.clientCount == 0)
  }
}
