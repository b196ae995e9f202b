import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Malformed requests, bad contexts and limits: each gets an error reply and (except an
/// over-long line) the connection stays usable.
@Suite struct DaemonBadInputTests {
  @Test func malformedJSONUnknownOpAndWrongTypes() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    try client.sendLine("{not json")
    #expect(try client.nextReply(timeout: .seconds(20)).errorCode == "invalid_json")
    try client.sendLine("[1,2]")
    #expect(try client.nextReply(timeout: .seconds(20)).errorCode == "bad_request")
    #expect(try client.errorCode(["op": "fly"]) == "unknown_op")
    let wrongType = try client.rawReply(["op": "subscribe", "session": "*", "fps": "fast"])
    #expect(wrongType.errorCode == "bad_request")
    #expect(wrongType.errorMessage?.contains("fps") == true)
    #expect(try client.errorCode(["op": "subscribe", "session": "*", "fps": 500]) == "bad_request")
    #expect(
      try client.errorCode(["op": "subscribe", "session": "*", "clock": "lunar"]) == "bad_request")
    #expect(try client.errorCode(["op": "subscribe", "session": "s9"]) == "unknown_session")
    #expect(
      try client.errorCode(["op": "unsubscribe", "subscription": 99]) == "unknown_subscription")
    #expect(try client.errorCode(["op": "begin"]) == "bad_request")
    // Still usable.
    #expect(try client.hello().server == "transitiond")
  }

  @Test(arguments: ["missing container", "negative size", "unknown operation", "non-finite"])
  func invalidContextNamesTheField(label: String) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var context = DaemonScenes.plainPush()
    let field: String
    switch label {
    case "missing container":
      context["container"] = nil
      field = "context.container"
    case "negative size":
      context["container"] = [-1, 10]
      field = "context.container"
    case "unknown operation":
      context["operation"] = "fly"
      field = "context.operation"
    default:
      // JSON cannot carry a non-finite number: 1e999 is refused as invalid JSON.
      context["container"] = "NONFINITE"
      field = "number out of range"
    }
    var line = JSONValue.object(["op": "begin", "context": .object(context)]).serialized
    // JSON cannot carry 1e999 (which parses as infinity): splice it in as text.
    line = line.replacingOccurrences(of: #""NONFINITE""#, with: "[1e999,10]")
    try client.sendLine(line)
    let reply = try client.nextReply(timeout: .seconds(20))
    #expect(reply.errorCode == (label == "non-finite" ? "invalid_json" : "invalid_context"))
    #expect(reply.errorMessage?.contains(field) == true, "\(label): \(reply.errorMessage ?? "")")
  }

  @Test func duplicateLayerIDsAreNamed() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var context = DaemonScenes.plainPush()
    context["to"] = ["layers": [["id": "list", "frame": [0, 0, 10, 10]]]]
    let reply = try client.rawReply(["op": "begin", "context": .object(context)])
    #expect(reply.errorCode == "invalid_context")
    #expect(reply.errorMessage?.contains("context.to.layers[0].id") == true)
  }

  /// A layer's appearance out of range, a bad colour, a clip naming no layer or closing a
  /// loop: each refused naming the layer's member, and the daemon then begins the same
  /// context with a good appearance.
  @Test func badAppearanceIsNamedAndLosesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let cases: [(String, JSONValue, String)] = [
      ("cornerRadius", -4, "context.from.layers[0].cornerRadius must not be negative"),
      ("border", ["width": -1, "color": "#000000ff"], "context.from.layers[0].border.width"),
      ("shadow", ["color": "#00000033", "blur": -2], "context.from.layers[0].shadow.blur"),
      ("shadow", ["color": "grey"], "context.from.layers[0].shadow.color"),
      ("clipTo", "nobody", "context.from.layers[0].clipTo \"nobody\" is no layer"),
      ("clipTo", "list", "context.from.layers[0].clipTo forms a loop"),
    ]
    for (member, value, expected) in cases {
      var context = DaemonScenes.plainPush()
      context["from"] = [
        "layers": [["id": "list", "frame": [0, 0, 390, 844], .init(member): value]]
      ]
      let reply = try client.rawReply(["op": "begin", "context": .object(context)])
      #expect(reply.errorCode == "invalid_context", "\(member)")
      #expect(reply.errorMessage?.contains(expected) == true, "\(reply.errorMessage ?? "")")
    }
    var context = DaemonScenes.plainPush()
    context["from"] = [
      "layers": [
        [
          "id": "list", "frame": [0, 0, 390, 844], "cornerRadius": 12, "clips": true,
          "shadow": ["color": "#00000033", "blur": 8, "offset": [0, 2]],
        ],
        ["id": "row", "frame": [0, 0, 390, 44], "clipTo": "list"],
      ]
    ]
    let good = try client.rawReply(["op": "begin", "context": .object(context)])
    #expect(good.errorCode == nil, "\(good.errorMessage ?? "")")
    #expect(try client.hello().server == "transitiond")
  }

  @Test func negativeLayerSizeIsNamed() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var context = DaemonScenes.plainPush()
    context["from"] = ["layers": [["id": "list", "frame": [0, 0, -5, 10]]]]
    let reply = try client.rawReply(["op": "begin", "context": .object(context)])
    #expect(reply.errorCode == "invalid_context")
    #expect(reply.errorMessage?.contains("context.from.layers[0].frame") == true)
  }

  @Test func unknownAnimatorAndUnsupportedOperation() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(
      try client.errorCode([
        "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "nope",
      ])
        == "unknown_animator")
    #expect(
      try client.errorCode([
        "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "crossfade",
      ]) == "unsupported_operation")
    #expect(
      try client.errorCode([
        "op": "begin", "context": .object(DaemonScenes.plainPush()), "duration": -1,
      ])
        == "bad_request")
    #expect(try client.sessions().isEmpty)
  }

  @Test func overlongLineGetsAnErrorThenTheConnectionCloses() throws {
    let daemon = try DaemonProcess(config: #"{"limits": {"maxLineBytes": 1024}}"#)
    let client = try daemon.client()
    try client.sendLine(#"{"op":"hello","pad":""# + String(repeating: "x", count: 2000) + #""}"#)
    let reply = try client.nextReply(timeout: .seconds(20))
    #expect(reply.errorCode == "line_too_long")
    #expect(throws: ClientError.self) { try client.nextReply(timeout: .seconds(20)) }
    // Others are unaffected.
    #expect(try daemon.client().hello().server == "transitiond")
  }

  @Test func limitsOnSessionsSubscriptionsLayersAndClients() throws {
    let daemon = try DaemonProcess(
      config: """
        {"limits": {"maxSessions": 2, "maxSubscriptionsPerClient": 2, "maxLayersPerContext": 3,
                    "maxClients": 2}}
        """)
    let client = try daemon.client()
    let one = try client.begin(context: DaemonScenes.plainPush(), interactive: true).session
    _ = try client.begin(context: DaemonScenes.plainPush(), interactive: true)
    #expect(
      try client.errorCode(["op": "begin", "context": .object(DaemonScenes.plainPush())])
        == "limit_exceeded")
    try client.end(session: one)
    var big = DaemonScenes.plainPush()
    big["to"] = [
      "layers": .array((1...3).map { ["id": .string("l\($0)"), "frame": [0, 0, 1, 1]] })
    ]
    let layers = try client.rawReply(["op": "begin", "context": .object(big)])
    #expect(layers.errorCode == "limit_exceeded")
    #expect(layers.errorMessage?.contains("maxLayersPerContext") == true)
    _ = try client.subscribe(session: "*")
    _ = try client.subscribe(session: "*")
    #expect(try client.errorCode(["op": "subscribe", "session": "*"]) == "limit_exceeded")
    let second = try daemon.client()
    #expect(try second.hello().server == "transitiond")
    let third = try daemon.client()
    let refused = try third.nextReply(timeout: .seconds(20))
    #expect(refused.errorCode == "limit_exceeded")
  }
}
