import Foundation
import Testing
import TransitionViewer

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
    let viewer = try DaemonViewerHTTPTests.Viewer()
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

  @Test("with the listener off, the daemon listens on no TCP port")
  func listenerOffMeansNoTCP() throws {
    let daemon = try DaemonProcess()
    #expect(try DaemonViewerHTTPTests.tcpSockets(of: daemon.pid).isEmpty)
    let view = try TransitionctlRun.run(["view"], socket: daemon.socketPath)
    #expect(view.status == 69)
  }

  static func readout(_ dom: String) -> String {
    guard let start = dom.range(of: "<span id=\"readout\">") else { return "none" }
    return String(dom[start.upperBound...].prefix { $0 != "<" })
  }
}
