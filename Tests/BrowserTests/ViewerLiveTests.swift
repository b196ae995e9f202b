import Foundation
import Testing
import TransitionViewer

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The viewer's live mode against the real daemon's HTTP listener: the page, loaded from the
/// daemon with its token, follows `/events`, lists a session begun from the CLI and draws it
/// to its last frame. Without the token the daemon answers 403; with the listener off the
/// daemon has no TCP socket at all.
@Suite(
  "viewer: live mode in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerLiveTests {
  @Test("the page served by the daemon follows a session begun from the CLI to its last frame")
  func liveSessionDrawnToTheEnd() throws {
    let viewer = try ViewerDaemon()
    let daemon = viewer.daemon
    let client = try daemon.client()
    defer { client.close() }
    #expect(try ViewerHTTPClient.get(port: viewer.port, "/").status == 403)

    // The browser loads the page and keeps its event stream open until the daemon stops.
    let page = try #require(URL(string: viewer.url + "&fps=60"))
    let browser = DispatchGroup()
    nonisolated(unsafe) var dom: Result<String, Error> = .success("")
    browser.enter()
    DispatchQueue.global().async {
      dom = Result { try HeadlessChromium.dumpDOM(page) }
      browser.leave()
    }
    let subscribed = try DaemonHarness.waitUntil(seconds: 60) {
      try client.stats()["subscriptions"] >= 1
    }
    #expect(subscribed, "the page never opened /events: \(daemon.log)")

    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let scene = try TransitionctlScene(named: "default-slide-push").url.path
    let recording = directory.file("played.ndjson")
    let played = try TransitionctlRun.run(
      ["play", scene, "--session", "live", "--fps", "60", "--out", recording],
      socket: daemon.socketPath)
    #expect(played.status == 0, "\(played.stderr)")
    let playedFrames = try TransitionctlRecording(
      String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      }
    ).frames.count

    // Ending the stream ends the page's loading, and chromium dumps what it drew.
    daemon.stop()
    browser.wait()
    let html = try dom.get()
    #expect(html.contains("data-status=\"ready\""), "\(Self.readout(html))")
    let readout = Self.readout(html)
    let shown = readout.split(separator: " ").dropFirst().first.map {
      $0.split(separator: "/").compactMap { Int($0) }
    }
    let position = try #require(shown, "the read-out: \(readout)")
    #expect(position.count == 2 && position[0] == position[1], "not at the last frame: \(readout)")
    // The page's stream holds at least the frames the CLI's own subscription got.
    #expect((position.last ?? 0) + 1 >= playedFrames, "\(readout) vs \(playedFrames) played")
    #expect(
      html.contains("live · default-slide push · \((position.last ?? 0) + 1) frames · finished"))
    // Every layer of the last frame is on the stage, in the container size from `begin`.
    #expect(html.contains("id=\"stage\" class=\"stage\" style=\"width: 390px; height: 844px;\""))
    for id in ["settings-navbar", "general-navbar", "default-slide.dim"] {
      #expect(html.contains("data-id=\"\(id)\""), "\(id) is not drawn")
    }
  }

  @Test("following delta frames, the page draws the same last frame as following full frames")
  func deltaStreamDrawsTheSameLastFrameAsFullFrames() throws {
    // The scenes' pictures are served, so that both pages draw them (not their names).
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let viewer = try ViewerDaemon(
      config: #"{"http": {"listen": "127.0.0.1:0", "images": "\#(images)"}}"#)
    let daemon = viewer.daemon
    let client = try daemon.client()
    defer { client.close() }
    // Two pages follow the daemon: one asks for full frames, the other for deltas (its default).
    let full = try LivePage(viewer.url + "&fps=60&encoding=full")
    let delta = try LivePage(viewer.url + "&fps=60")
    let subscribed = try DaemonHarness.waitUntil(seconds: 60) {
      try client.stats()["subscriptions"] >= 2
    }
    #expect(subscribed, "the pages never opened /events: \(daemon.log)")

    let scene = try TransitionctlScene(named: "album-flip-push").url.path
    let played = try TransitionctlRun.run(
      ["play", scene, "--session", "flip", "--fps", "60", "--out", "/dev/null"],
      socket: daemon.socketPath)
    #expect(played.status == 0, "\(played.stderr)")
    daemon.stop()
    let fullHTML = try full.html()
    let deltaHTML = try delta.html()
    for html in [fullHTML, deltaHTML] {
      #expect(html.contains("data-status=\"ready\""), "\(Self.readout(html))")
      #expect(html.contains("data-dropped=\"0\""), "\(Self.live(html))")
    }
    #expect(fullHTML.contains("data-encoding=\"full\""), "\(Self.live(fullHTML))")
    #expect(deltaHTML.contains("data-encoding=\"delta\""), "\(Self.live(deltaHTML))")
    // Both at the session's final frame (always sent): the same t and progress...
    let fullReadout = Self.readout(fullHTML)
    let deltaReadout = Self.readout(deltaHTML)
    #expect(fullReadout.contains("finished"), "\(fullReadout)")
    #expect(
      fullReadout.split(separator: "·").dropFirst()
        == deltaReadout.split(separator: "·").dropFirst(),
      "\(fullReadout) vs \(deltaReadout)")
    // ...and every layer drawn alike: its element, frame, transform, opacity and content.
    let fullStage = Self.stage(fullHTML)
    #expect(
      fullStage.components(separatedBy: "class=\"layer").count > 20, "\(fullStage.prefix(400))")
    #expect(Self.stage(deltaHTML) == fullStage)
  }

  @Test("a delta with no key frame before it is dropped with a note, and the page reconnects")
  func aDeltaWithoutItsKeyFrameIsDroppedAndThePageReconnects() throws {
    let begin =
      #"{"event":"begin","session":"s1","container":[100,200],"animator":"crossfade","#
      + #""operation":"present","duration":0.5,"clock":"wall","fps":60,"encoding":"delta","#
      + #""interactive":false,"start":1}"#
    func frame(_ seq: Int, key: Bool, _ layers: String) -> String {
      #"{"event":"frame","session":"s1","seq":\#(seq),"t":\#(Double(seq) / 100),"#
        + #""progress":\#(Double(seq) / 10),"layers":\#(layers),"key":\#(key)}"#
    }
    let server = try ScriptedEventServer(scripts: [
      // A stream that lost its place: a delta whose key frame the page never had.
      [begin, frame(5, key: false, #"[{"id":"card","alpha":0.75}]"#)],
      // Opened again: a key frame, then a delta on it.
      [
        begin,
        frame(6, key: true, #"[{"id":"card","frame":[10,20,30,40],"alpha":0.5,"z":0}]"#),
        frame(7, key: false, #"[{"id":"card","alpha":0.25}]"#),
        #"{"event":"complete","session":"s1","finished":true}"#,
      ],
    ])
    let html = try HeadlessChromium.dumpDOM(
      try #require(URL(string: "http://127.0.0.1:\(server.port)/?fps=30")))
    let targets = server.eventTargets
    #expect(targets.count == 2, "\(targets)")
    #expect(targets.allSatisfy { $0.contains("encoding=delta") && $0.contains("fps=30") })
    #expect(html.contains("data-status=\"ready\""), "\(Self.readout(html))")
    let live = Self.live(html)
    #expect(live.contains("data-dropped=\"1\""), "\(live)")
    #expect(
      live.contains("dropped 1 delta frame that had no key frame before it (last: s1 seq 5)"),
      "\(live)")
    // The key frame and the delta on it, nothing of the dropped one.
    let readout = Self.readout(html)
    #expect(readout.hasPrefix("frame 1/1 · t 0.070 s · progress 0.700"), "\(readout)")
    let stage = Self.stage(html)
    #expect(stage.components(separatedBy: "class=\"layer").count == 2, "\(stage)")
    #expect(stage.contains("data-id=\"card\""))
    #expect(stage.contains("opacity: 0.25"), "\(stage)")
    #expect(stage.contains("left: 10px"), "\(stage)")
  }

  /// Headless Chromium on a page, on another thread; ``html()`` waits for its DOM, which it
  /// dumps once the page's loading ends (for a live page, when the daemon ends its stream).
  final class LivePage: @unchecked Sendable {
    private let group = DispatchGroup()
    private var dom: Result<String, Error> = .success("")

    init(_ address: String) throws {
      let page = try #require(URL(string: address))
      group.enter()
      DispatchQueue.global().async {
        self.dom = Result { try HeadlessChromium.dumpDOM(page) }
        self.group.leave()
      }
    }

    func html() throws -> String {
      group.wait()
      return try dom.get()
    }
  }

  /// The stage's elements as the page left them.
  static func stage(_ dom: String) -> String {
    guard let start = dom.range(of: "<div id=\"stage\""),
      let end = dom.range(of: "<aside id=\"inspector\"", range: start.upperBound..<dom.endIndex)
    else { return "none" }
    return String(dom[start.lowerBound..<end.lowerBound])
  }

  /// The live state element, its attributes and its text.
  static func live(_ dom: String) -> String {
    guard let start = dom.range(of: "<span id=\"live\""),
      let end = dom.range(of: "</span>", range: start.upperBound..<dom.endIndex)
    else { return "none" }
    return String(dom[start.lowerBound..<end.lowerBound])
  }

  @Test("with the listener off, the daemon listens on no TCP port")
  func listenerOffMeansNoTCP() throws {
    let daemon = try DaemonProcess()
    #expect(try DaemonHarness.tcpSockets(of: daemon.pid).isEmpty)
    let view = try TransitionctlRun.run(["view"], socket: daemon.socketPath)
    #expect(view.status == 69)
  }

  static func readout(_ dom: String) -> String {
    guard let start = dom.range(of: "<span id=\"readout\">") else { return "none" }
    return String(dom[start.upperBound...].prefix { $0 != "<" })
  }
}
