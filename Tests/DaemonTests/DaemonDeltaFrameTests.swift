import Testing
import TransitionClient
import TransitionJSON
import TransitionWire
import UnixIO

@testable import IntegrationSupport

/// Delta subscriptions against the real daemon (docs/protocol.md, "Delta frames"): applied in
/// order, their frames rebuild exactly the frames a full subscription to the same session gets.
@Suite struct DaemonDeltaFrameTests {
  /// An album-flip push with 24 photo cells: most layers change in most frames.
  static func albumPush(cells: Int = 24) -> [String: JSONValue] {
    var context = DaemonScenes.albumPush()
    var to = context["to"]?.objectValue ?? [:]
    var photos: [JSONValue] = []
    for index in 0..<cells {
      let x = JSONValue.number(Double(index % 3) * 131)
      let y = JSONValue.number(94 + Double(index / 3) * 131)
      let frame: JSONValue = .array([x, y, .number(128), .number(128)])
      let content: JSONValue = .object(["image": .string("photo-\(index).jpg")])
      photos.append(.object(["id": .string("photo-\(index)"), "frame": frame, "content": content]))
    }
    to["layers"] = .array(photos)
    context["to"] = .object(to)
    return context
  }

  /// Reads `session`'s frames until its `complete`, split by how they arrived: the frames of
  /// the full subscription and the (rebuilt) frames of the delta one, both by seq.
  private func readBoth(_ client: DaemonClient, session: String) throws -> (
    full: [Int: FrameEvent], delta: [FrameEvent]
  ) {
    var full: [Int: FrameEvent] = [:]
    var delta: [FrameEvent] = []
    var completes = 0
    while completes < 2 {
      switch try client.event() {
      case .frame(let frame) where frame.session == session:
        if frame.key == nil { full[frame.seq] = frame } else { delta.append(frame) }
      case .complete(let complete) where complete.session == session:
        completes += 1
      default:
        break
      }
    }
    return (full, delta)
  }

  private func raw(_ line: String) throws -> [String: JSONValue] {
    try JSONValue(parsing: Array(line.utf8)).objectValue ?? [:]
  }

  @Test func wallDeltasRebuildTheFullFramesOfTheSameSession() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let begun = try client.begin(
      context: Self.albumPush(), animator: "album-flip", duration: 0.4, interactive: true)
    _ = try client.subscribe(session: begun.session, fps: 60)
    let reply = try client.request(
      .subscribe, ["session": .string(begun.session), "fps": 60, "encoding": "delta"])
    #expect(reply.fields["encoding"] == .string("delta"))
    _ = try client.control(session: begun.session, action: .update(progress: 0.3))
    _ = try client.control(session: begun.session, action: .update(progress: 0.3))
    _ = try client.control(session: begun.session, action: .resume)
    let (full, delta) = try readBoth(client, session: begun.session)

    #expect(delta.count >= 10)
    #expect(delta.first?.key == true)
    #expect(delta.dropFirst().allSatisfy { $0.key == false })
    for frame in delta {
      let expected = try #require(full[frame.seq], "no full frame \(frame.seq)")
      #expect(
        JSONValue.object(frame.fields) == JSONValue.object(expected.fields), "seq \(frame.seq)")
    }
    // The repeated update changed nothing: its delta lists no layer.
    let unchanged = delta.filter { try! raw($0.line)["layers"] == .array([]) }
    #expect(!unchanged.isEmpty)
    // Deltas are smaller: the bytes of the delta lines against the full lines.
    let deltaBytes = delta.dropFirst().reduce(0) { $0 + $1.line.utf8.count }
    let fullBytes = delta.dropFirst().reduce(0) { $0 + (full[$1.seq]?.line.utf8.count ?? 0) }
    #expect(deltaBytes * 2 < fullBytes, "\(deltaBytes) delta bytes against \(fullBytes) full")
  }

  @Test func virtualDeltasRebuildTheFullFramesAndDefaultsAreWrittenOut() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let begun = try client.begin(
      context: DaemonScenes.present(), animator: "zoom-present", duration: 0.5)
    _ = try client.subscribe(session: begun.session, fps: 30, clock: .virtual)
    _ = try client.subscribe(session: begun.session, fps: 30, clock: .virtual, encoding: .delta)
    let (full, delta) = try readBoth(client, session: begun.session)
    #expect(delta.count == full.count)
    #expect(delta.map(\.seq) == Array(0..<delta.count))
    for frame in delta {
      let expected = try #require(full[frame.seq])
      #expect(
        JSONValue.object(frame.fields) == JSONValue.object(expected.fields), "seq \(frame.seq)")
    }
    // The detail's transform goes back to the identity at the end: the last delta writes it.
    let last = try raw(try #require(delta.last).line)
    let layers = last["layers"]?.arrayValue ?? []
    let identity = JSONValue.array(
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1].map { .number($0) })
    #expect(layers.contains { $0["transform"] == identity }, "\(last)")
    #expect(try #require(full[delta.count - 1]).layers.contains { $0["transform"] == nil })
  }

  @Test func aLateJoinerStartsWithAKeyFrameAndResyncSendsOne() throws {
    let daemon = try DaemonProcess()
    let owner = try daemon.client()
    let begun = try owner.begin(
      context: Self.albumPush(cells: 4), animator: "album-flip", interactive: true)
    _ = try owner.subscribe(session: begun.session, fps: 60)
    _ = try owner.control(session: begun.session, action: .update(progress: 0.2))
    let late = try daemon.client()
    let subscription = try late.subscribe(session: begun.session, fps: 60, encoding: .delta)
    guard case .begin = try late.event() else { throw DaemonHarnessError("no begin event") }
    guard case .frame(let first) = try late.event() else { throw DaemonHarnessError("no frame") }
    #expect(first.key == true)
    #expect(first.seq > 0)
    #expect(first.progress == 0.2)
    _ = try owner.control(session: begun.session, action: .update(progress: 0.5))
    guard case .frame(let second) = try late.event() else { throw DaemonHarnessError("no frame") }
    #expect(second.key == false)
    #expect(second.progress == 0.5)
    try late.resync(subscription: subscription)
    guard case .frame(let again) = try late.event() else { throw DaemonHarnessError("no frame") }
    #expect(again.key == true)
    #expect(again.seq == second.seq)
    #expect(JSONValue.object(again.fields) == JSONValue.object(second.fields))
  }

  @Test func badEncodingsAndResyncsAreRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let begun = try client.begin(context: DaemonScenes.present(), interactive: true)
    #expect(
      try client.errorCode([
        "op": "subscribe", "session": .string(begun.session), "encoding": "diff",
      ]) == "bad_request")
    let full = try client.subscribe(session: begun.session)
    #expect(
      try client.errorCode(["op": "resync", "subscription": .number(Double(full))])
        == "bad_request")
    #expect(try client.errorCode(["op": "resync", "subscription": 999]) == "unknown_subscription")
    #expect(try client.hello().features.contains("delta"))
  }
}
