import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionViewer
import TransitionWire

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's HTTP viewer listener (config `http`), against the real daemon: off by default,
/// loopback only, a token on every request, the page's files, and `/events` carrying the very
/// lines a socket subscriber reads.
@Suite("transitiond: the HTTP viewer listener", .serialized)
struct DaemonViewerHTTPTests {
  @Test("off by default: hello names no viewer, view exits 69, and the daemon has no TCP socket")
  func offByDefault() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    defer { client.close() }
    #expect(try client.hello().viewer == nil)
    let view = try TransitionctlRun.run(["view"], socket: daemon.socketPath)
    #expect(view.status == 69)
    #expect(view.stderr.contains("http.listen"))
    #expect(try DaemonHarness.tcpSockets(of: daemon.pid).isEmpty)
  }

  @Test("the URL with a 64-digit token is logged, given by hello and printed by view")
  func urlInLogHelloAndView() throws {
    let viewer = try ViewerDaemon()
    #expect(viewer.url == "http://127.0.0.1:\(viewer.port)/?token=\(viewer.token)")
    #expect(viewer.token.count == 64 && viewer.token.allSatisfy(\.isHexDigit))
    let client = try viewer.daemon.client()
    defer { client.close() }
    #expect(try client.hello().viewer == viewer.url)
    let view = try TransitionctlRun.run(["view"], socket: viewer.daemon.socketPath)
    #expect(view.status == 0, "\(view.stderr)")
    #expect(view.stdout == viewer.url + "\n")
    // The listener is the daemon's only TCP socket, and it listens.
    let sockets = try DaemonHarness.tcpSockets(of: viewer.daemon.pid)
    #expect(sockets.count == 1)
    #expect(sockets.first?.listening == true)
    // Another daemon draws another token.
    let other = try ViewerDaemon()
    #expect(other.token != viewer.token)
  }

  @Test("--viewer turns the listener on over a config that leaves it off, as make run does")
  func viewerOptionOverridesTheConfig() throws {
    let images = FileManager.default.temporaryDirectory.path
    let viewer = try ViewerDaemon(
      config: #"{"http": {"listen": ""}}"#,
      arguments: ["--viewer", "127.0.0.1:0", "--viewer-images", images])
    let view = try TransitionctlRun.run(["view"], socket: viewer.daemon.socketPath)
    #expect(view.status == 0, "\(view.stderr)")
    #expect(view.stdout == viewer.url + "\n")
    #expect(try viewer.get("/", token: viewer.token).status == 200)
  }

  @Test("every request needs the token: 403 without it or with a wrong one, page files with it")
  func tokenOnEveryRequest() throws {
    let viewer = try ViewerDaemon()
    for path in ["/", "/viewer.js", "/events", "/events?session=*", "/favicon.ico", "/nope"] {
      #expect(try viewer.get(path).status == 403, "\(path)")
      let wrong = String(viewer.token.reversed())
      #expect(try viewer.get(path, token: wrong).status == 403, "\(path) with a wrong token")
      #expect(try viewer.get(path, token: String(viewer.token.dropLast())).status == 403)
    }
    let page = try #require(
      ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory))
    for name in ViewerPage.fileNames {
      let reply = try viewer.get(name == "index.html" ? "/" : "/" + name, token: viewer.token)
      #expect(reply.status == 200, "\(name)")
      #expect(reply.headers["content-type"] == ViewerPage.mediaType(of: name))
      #expect(reply.headers["referrer-policy"] == "no-referrer")
      let file = try #require(FileManager.default.contents(atPath: page + "/" + name))
      #expect(reply.body == Array(file), "\(name) is served as it is")
    }
    #expect(try viewer.get("/nope", token: viewer.token).status == 404)
    #expect(try viewer.get("/../transitiond.json", token: viewer.token).status != 200)
    #expect(try viewer.get("/events?session=ghost", token: viewer.token).status == 404)
    #expect(try viewer.get("/events?fps=0", token: viewer.token).status == 400)
    // Only GET: nothing over HTTP can change state.
    for method in ["POST", "PUT", "DELETE"] {
      let refused = try viewer.get("/events", token: viewer.token, method: method)
      #expect([405, 501].contains(refused.status), "\(method): \(refused.status)")
    }
  }

  @Test("/events frames, rendered ahead, arrive at their instant, not before")
  func eventsArriveWhenDue() throws {
    let viewer = try ViewerDaemon()
    let client = try viewer.daemon.client()
    defer { client.close() }
    _ = try client.begin(
      context: DaemonScenes.present(), animator: "crossfade", duration: 0.6, session: "timed")
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send("/events?session=timed&fps=120&token=\(viewer.token)")
    let events = try stream.readTimedEvents { $0.contains(#""event":"complete""#) }
    let begin = try #require(events.first.map { try JSONValue(parsing: Array($0.line.utf8)) })
    let start = try #require(begin["start"]?.numberValue)
    var frames = 0
    var early: [String] = []
    for (line, arrival) in events.dropFirst() {
      let event = try JSONValue(parsing: Array(line.utf8))
      guard event["event"] == .string("frame"), let t = event["t"]?.numberValue else { continue }
      frames += 1
      if arrival < start + t - 1e-5 {
        early.append("seq \(event["seq"] ?? .null) came \((start + t - arrival) * 1e3) ms early")
      }
    }
    #expect(frames > 20)
    #expect(early.isEmpty, "\(early)")
  }

  @Test("a named /events stream is retimed by /display and takes /presented once per frame")
  func namedStreamRetimedAndReported() throws {
    let viewer = try ViewerDaemon()
    let client = try viewer.daemon.client()
    defer { client.close() }
    _ = try client.begin(
      context: DaemonScenes.present(), animator: "crossfade", duration: 30, session: "long")
    let now = try #require(try viewer.get("/clock", token: viewer.token).json["now"]?.numberValue)
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send(
      "/events?session=long&stream=page&period=0.02&vblank=\(now)&token=\(viewer.token)")
    let opened = try stream.readEvents { $0.count >= 3 }
    let begin = try JSONValue(parsing: Array(opened[0].utf8))
    let frame = try JSONValue(parsing: Array(opened[2].utf8))
    let start = try #require(begin["start"]?.numberValue)
    let seq = try #require(frame["seq"]?.numberValue)
    let t = try #require(frame["t"]?.numberValue)
    // A second stream cannot take a name that is open.
    #expect(try viewer.get("/events?stream=page", token: viewer.token).status == 400)

    let presented = "/presented?stream=page&session=long&seq=\(Int(seq))&time=\(start + t)"
    let taken = try viewer.get(presented, token: viewer.token)
    #expect(taken.status == 200 && taken.json == .object(["ok": .bool(true)]))
    let again = try viewer.get(presented, token: viewer.token)
    #expect(again.status == 400 && again.text.hasPrefix("bad_request: "), "\(again.text)")
    let unsent = try viewer.get(
      "/presented?stream=page&session=long&seq=100000&time=\(start + t)", token: viewer.token)
    #expect(unsent.status == 400, "\(unsent.text)")
    #expect(
      try viewer.get(
        presented.replacingOccurrences(of: "=page", with: "=nobody"), token: viewer.token
      ).status == 404)

    let retimed = try viewer.get(
      "/display?stream=page&period=0.01&vblank=\(now + 0.003)", token: viewer.token)
    #expect(retimed.status == 200, "\(retimed.text)")
    #expect(retimed.json["display"]?["period"] == .number(0.01))
    let refused = try viewer.get(
      "/display?stream=page&period=0.0001&vblank=\(now)", token: viewer.token)
    #expect(refused.status == 400 && refused.text.contains("period must be in [0.002, 1]"))
    // The frames go on at the new timing: each shows a vblank of it.
    let later = try stream.readEvents { $0.count >= 12 }.dropFirst(8)
    for line in later {
      let event = try JSONValue(parsing: Array(line.utf8))
      let shown = start + (try #require(event["t"]?.numberValue))
      let phase = (shown - now - 0.003) / 0.01
      #expect(abs(phase - phase.rounded()) * 0.01 < 1e-4, "\(line)")
    }
  }

  @Test("/events carries the same lines as the socket: begin, every frame, complete")
  func eventsAreTheSocketsLines() throws {
    let viewer = try ViewerDaemon()
    let watcher = try viewer.daemon.client()
    defer { watcher.close() }
    _ = try watcher.request(["op": "subscribe", "session": "*", "fps": 30])
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send("/events?session=*&fps=30&token=\(viewer.token)")
    // The stream is open once the daemon counts its subscription.
    let client = try viewer.daemon.client()
    defer { client.close() }
    #expect(
      try DaemonHarness.waitUntil {
        try client.stats()["subscriptions"] >= 2
      })
    let begun = try client.begin(
      context: DaemonScenes.albumPush(), duration: 0.3, session: "shown")
    #expect(begun.session == "shown")

    var socketLines: [String] = []
    while true {
      let event = try watcher.nextEvent(timeout: .seconds(20))
      socketLines.append(event.line)
      if case .complete = event { break }
    }
    let events = try stream.readEvents { $0.last?.contains(#""event":"complete""#) == true }
    #expect(stream.head.hasPrefix("HTTP/1.1 200 OK"))
    #expect(stream.head.lowercased().contains("content-type: text/event-stream"))
    #expect(events == socketLines)
    #expect(events.first?.contains(#""container":[390,844]"#) == true)
    #expect(events.count >= 3)
  }

  @Test(
    "/events?encoding=delta carries a socket delta subscriber's lines, which rebuild its full frames"
  )
  func deltaEventsAreTheSocketsDeltaLines() throws {
    let viewer = try ViewerDaemon()
    let fullWatcher = try viewer.daemon.client()
    defer { fullWatcher.close() }
    _ = try fullWatcher.subscribe(session: "*", fps: 30)
    let deltaWatcher = try viewer.daemon.client()
    defer { deltaWatcher.close() }
    _ = try deltaWatcher.subscribe(session: "*", fps: 30, encoding: .delta)
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send("/events?session=*&fps=30&encoding=delta&token=\(viewer.token)")
    let client = try viewer.daemon.client()
    defer { client.close() }
    #expect(try DaemonHarness.waitUntil { try client.stats()["subscriptions"] >= 3 })
    _ = try client.begin(
      context: DaemonDeltaFrameTests.albumPush(), animator: "album-flip", duration: 0.5,
      session: "shown")

    let fullLines = try Self.linesUntilComplete(of: fullWatcher)
    let deltaLines = try Self.linesUntilComplete(of: deltaWatcher)
    let events = try stream.readEvents { $0.last?.contains(#""event":"complete""#) == true }
    // Exactly the lines a socket subscriber with encoding "delta" reads: the deltas of the
    // session's one stream at this rate, encoded once for both.
    #expect(events == deltaLines)
    #expect(events.count == fullLines.count)

    let streamed = try events.map { try JSONValue(parsing: Array($0.utf8)).objectValue ?? [:] }
    let expected = try fullLines.map { try JSONValue(parsing: Array($0.utf8)).objectValue ?? [:] }
    // The begin event says which encoding, as a subscribe reply would; the rest is the same.
    #expect(streamed.first?["encoding"] == .string("delta"))
    #expect(expected.first?["encoding"] == .string("full"))
    #expect(
      streamed.first?.filter { $0.key != "encoding" }
        == expected.first?.filter {
          $0.key != "encoding"
        })
    let frames = streamed.filter { $0["event"] == .string("frame") }
    #expect(frames.count >= 10)
    #expect(frames.first?["key"] == .bool(true))
    #expect(frames.dropFirst().allSatisfy { $0["key"] == .bool(false) })
    // Applied in order with the client's applier, they rebuild the full subscriber's frames.
    var applier = FrameDeltaApplier()
    for (index, (event, full)) in zip(streamed, expected).enumerated().dropFirst() {
      let rebuilt = event["event"] == .string("frame") ? try applier.apply(event) : event
      #expect(
        JSONValue.object(rebuilt) == JSONValue.object(full), "event \(index): \(events[index])")
    }
    // Deltas are smaller on the wire.
    let deltaBytes = events.dropFirst().reduce(0) { $0 + $1.utf8.count }
    let fullBytes = fullLines.dropFirst().reduce(0) { $0 + $1.utf8.count }
    #expect(deltaBytes * 2 < fullBytes, "\(deltaBytes) delta bytes against \(fullBytes) full")
  }

  @Test("/events?encoding=delta of a running session starts with a key frame, then deltas")
  func aLateDeltaStreamStartsWithAKeyFrame() throws {
    let viewer = try ViewerDaemon()
    let client = try viewer.daemon.client()
    defer { client.close() }
    let begun = try client.begin(
      context: DaemonDeltaFrameTests.albumPush(cells: 4), animator: "album-flip",
      interactive: true, session: "late")
    // A socket subscriber at the same rate has the session's stream under way.
    _ = try client.subscribe(session: begun.session, fps: 60)
    _ = try client.control(session: begun.session, action: .update(progress: 0.2))
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send("/events?session=late&fps=60&encoding=delta&token=\(viewer.token)")
    let opened = try stream.readEvents { $0.count >= 2 }
    let begin = try JSONValue(parsing: Array(opened[0].utf8))
    #expect(begin["event"] == .string("begin"))
    #expect(begin["encoding"] == .string("delta"))
    let first = try JSONValue(parsing: Array(opened[1].utf8))
    #expect(first["key"] == .bool(true))
    #expect((first["seq"]?.numberValue ?? 0) > 0)
    #expect(first["progress"] == .number(0.2))
    _ = try client.control(session: begun.session, action: .update(progress: 0.5))
    let next = try JSONValue(
      parsing: Array(try #require(stream.readEvents { $0.count >= 3 }.dropFirst(2).first).utf8))
    #expect(next["key"] == .bool(false))
    #expect(next["progress"] == .number(0.5))
  }

  @Test("/events with an encoding other than full or delta gets 400 and one line saying why")
  func badEncodingRefused() throws {
    let viewer = try ViewerDaemon()
    for value in ["diff", "", "DELTA", "delta%0AX-Evil:%201"] {
      let reply = try viewer.get("/events?encoding=\(value)", token: viewer.token)
      #expect(reply.status == 400, "\(value)")
      #expect(reply.text.hasPrefix(#"encoding must be "full" or "delta", got ""#), "\(reply.text)")
      #expect(reply.text.split(separator: "\n").count == 1, "\(reply.text)")
    }
    #expect(
      try viewer.get("/events?session=ghost&encoding=full", token: viewer.token).status == 404)
  }

  @Test("a reader that does not read is coalesced, then dropped, as on the socket")
  func slowEventStreamReader() throws {
    let viewer = try ViewerDaemon(
      config: #"""
        {"http": {"listen": "127.0.0.1:0"},
         "limits": {"subscriberSoftLimitBytes": 4096, "subscriberHardLimitBytes": 65536,
                    "subscriberSoftLimitSeconds": 0.5}}
        """#)
    let client = try viewer.daemon.client()
    defer { client.close() }
    _ = try client.begin(context: DaemonScenes.albumPush(), duration: 60, session: "long")
    let stream = try ViewerHTTPClient(port: viewer.port, receiveBuffer: 1024)
    try stream.send("/events?session=long&fps=240&token=\(viewer.token)")
    // Never read: the daemon's queue for the stream grows until the policy drops it.
    let dropped = try DaemonHarness.waitUntil(seconds: 30) {
      try client.stats()["slowDisconnects"] >= 1
    }
    #expect(dropped, "\(viewer.daemon.log)")
    #expect(viewer.daemon.log.contains("disconnecting slow client"))
  }

  @Test("at most http.maxConnections connections are served; one more gets 503")
  func connectionLimit() throws {
    let viewer = try ViewerDaemon(
      config: #"{"http": {"listen": "127.0.0.1:0", "maxConnections": 1}}"#)
    let stream = try ViewerHTTPClient(port: viewer.port)
    try stream.send("/events?token=\(viewer.token)")
    let client = try viewer.daemon.client()
    defer { client.close() }
    #expect(try DaemonHarness.waitUntil { try client.stats()["subscriptions"] >= 1 })
    let refused = try viewer.get("/", token: viewer.token)
    #expect(refused.status == 503)
    #expect(refused.text.contains("http.maxConnections"))
    // Once the stream's connection has gone, the slot is free again.
    close(stream.descriptor)
    #expect(
      DaemonHarness.waitUntil { (try? viewer.get("/", token: viewer.token).status) == 200 })
  }

  @Test("a non-loopback http.listen is a config error naming the key; the daemon does not start")
  func nonLoopbackRefused() throws {
    for address in ["0.0.0.0:7878", "192.168.1.2:7878", "[::]:7878", "localhost:7878", "127.0.0.1"]
    {
      let daemon = try DaemonProcess(
        config: #"{"http": {"listen": "\#(address)"}}"#, waitForSocket: false)
      #expect(try daemon.waitForExit() == 78, "\(address)")
      #expect(daemon.log.contains("http.listen"), "\(daemon.log)")
      #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }
  }

  /// The lines `watcher` reads until a `complete` event, as the daemon sent them.
  static func linesUntilComplete(of watcher: DaemonClient) throws -> [String] {
    var lines: [String] = []
    while true {
      let event = try watcher.nextEvent(timeout: .seconds(20))
      lines.append(event.line)
      if case .complete = event { return lines }
    }
  }
}

extension ViewerHTTPReply {
  /// The body as JSON (`.null` when it is not).
  fileprivate var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
}
