import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Reduced motion on a real daemon (docs/protocol.md, "Reduced motion"): an animator's own
/// reduced form, the daemon's cross-fade for one without, and which of `begin`, the context
/// and the config decides.
@Suite(.serialized) struct DaemonReducedMotionTests {
  /// Begins `context` with `members` added, subscribes with the virtual clock at 20 fps and
  /// returns the reply, the `begin` event and the frames.
  static func play(
    _ client: DaemonClient, _ context: [String: JSONValue], _ members: [String: JSONValue]
  ) throws -> (reply: Reply, begin: Event, frames: [FrameEvent]) {
    var request: [String: JSONValue] = ["op": "begin", "context": .object(context)]
    request.merge(members) { _, new in new }
    let reply = try client.rawReply(request)
    let session = try #require(reply.fields["session"]?.stringValue, "\(reply.fields)")
    _ = try client.subscribe(session: session, fps: 20, clock: .virtual)
    let begin = try client.event()
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    return (reply, begin, frames)
  }

  /// The `motion` member of a `begin` event.
  static func motion(of event: Event) -> String? {
    guard let line = try? JSONValue(parsing: Array(event.line.utf8)) else { return nil }
    return line.objectValue?["motion"]?.stringValue
  }

  /// The layer `id` of `frame`.
  static func layer(_ id: String, _ frame: FrameEvent) -> [String: JSONValue]? {
    frame.layers.first { $0["id"]?.stringValue == id }
  }

  static func alpha(_ layer: [String: JSONValue]?) -> Double? {
    guard let layer else { return nil }
    return layer["alpha"]?.numberValue ?? 1
  }

  @Test func aBuiltInPlaysItsOwnReducedFormInPlace() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let (reply, begin, frames) = try Self.play(
      client, DaemonScenes.plainPush(),
      ["animator": "default-slide", "reduceMotion": true])
    #expect(reply.fields["motion"]?.stringValue == "reduced", "\(reply.fields)")
    #expect(reply.fields["animator"]?.stringValue == "default-slide")
    #expect(reply.fields["fallback"] == .bool(false))
    // default-slide's reduced form: no dimming layer, 0.35 s.
    #expect(reply.fields["layers"]?.numberValue == 2)
    #expect(reply.fields["duration"]?.numberValue == 0.35)
    #expect(Self.motion(of: begin) == "reduced")
    // The new screen dissolves in, never moving; the old one stays.
    #expect(Self.alpha(Self.layer("detail", try #require(frames.first))) == 0)
    #expect(Self.alpha(Self.layer("detail", try #require(frames.last))) == 1)
    for frame in frames {
      for id in ["list", "detail"] {
        let layer = try #require(Self.layer(id, frame), "\(frame.line)")
        #expect(layer["frame"] == [0, 0, 390, 844], "\(frame.line)")
        #expect(layer["transform"] == nil, "\(frame.line)")
      }
      #expect(Self.alpha(Self.layer("list", frame)) == 1)
    }
  }

  @Test func anAnimatorWithoutAReducedFormIsReplacedByTheDaemonsCrossFade() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let (reply, _, frames) = try Self.play(
      client, DaemonScenes.present(), ["animator": "crossfade", "reduceMotion": true])
    #expect(reply.fields["motion"]?.stringValue == "reduced", "\(reply.fields)")
    #expect(reply.fields["animator"]?.stringValue == "crossfade")
    #expect(reply.fields["duration"]?.numberValue == 0.2)
    let first = try #require(frames.first)
    let last = try #require(frames.last)
    #expect(Self.alpha(Self.layer("cell", first)) == 1)
    #expect(Self.alpha(Self.layer("cell", last)) == 0)
    #expect(Self.alpha(Self.layer("detail", first)) == 0)
    #expect(Self.alpha(Self.layer("detail", last)) == 1)
    // Monotonic fades, each layer in place.
    let detailAlphas = frames.compactMap { Self.alpha(Self.layer("detail", $0)) }
    #expect(detailAlphas.count == frames.count)
    #expect(zip(detailAlphas, detailAlphas.dropFirst()).allSatisfy { $0 <= $1 })
    for frame in frames {
      #expect(Self.layer("cell", frame)?["frame"] == [20, 100, 100, 100], "\(frame.line)")
    }
    // The begin's duration wins over the config's.
    let (longer, _, _) = try Self.play(
      client, DaemonScenes.present(),
      ["animator": "crossfade", "reduceMotion": true, "duration": 0.5])
    #expect(longer.fields["duration"]?.numberValue == 0.5)
  }

  @Test func theBeginWinsOverTheContextWhichWinsOverTheConfig() throws {
    let daemon = try DaemonProcess(
      config: #"{"reduceMotion": true, "reducedMotionDuration": 0.1}"#)
    let client = try daemon.client()
    // The config's default.
    let (byConfig, _, _) = try Self.play(client, DaemonScenes.present(), ["animator": "crossfade"])
    #expect(byConfig.fields["motion"]?.stringValue == "reduced", "\(byConfig.fields)")
    #expect(byConfig.fields["duration"]?.numberValue == 0.1)
    // The context says no.
    var context = DaemonScenes.present()
    context["reduceMotion"] = false
    let (byContext, _, _) = try Self.play(client, context, ["animator": "crossfade"])
    #expect(byContext.fields["motion"]?.stringValue == "full")
    #expect(byContext.fields["duration"]?.numberValue == 0.3)
    // The begin says yes over the context's no.
    let (byBegin, begin, _) = try Self.play(
      client, context, ["animator": "crossfade", "reduceMotion": true])
    #expect(byBegin.fields["motion"]?.stringValue == "reduced")
    #expect(Self.motion(of: begin) == "reduced")
  }

  @Test func helloListsTheFeatureAndBadValuesAreRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let hello = try client.rawReply(["op": "hello"])
    #expect(hello.fields["features"]?.arrayValue?.contains("reduceMotion") == true)
    let listed = try client.rawReply(["op": "animators"]).fields["animators"]?.arrayValue ?? []
    let reduced = Dictionary(
      uniqueKeysWithValues: listed.compactMap { entry in
        entry["name"]?.stringValue.map { ($0, entry["reduced"]) }
      })
    #expect(reduced["default-slide"] == .bool(true))
    #expect(reduced["zoom-present"] == .bool(true))
    #expect(reduced["crossfade"] == .bool(false))
    #expect(
      try client.errorCode([
        "op": "begin", "context": .object(DaemonScenes.present()), "reduceMotion": "yes",
      ]) == "bad_request")
    var context = DaemonScenes.present()
    context["reduceMotion"] = 1
    #expect(
      try client.errorCode(["op": "begin", "context": .object(context)]) == "invalid_context")
  }
}
