import Foundation
import Testing
import TransitionViewer

/// The viewer's live mode, served over HTTP as the daemon's listener will serve it: a session
/// the real daemon played streams in as Server-Sent Events, led by the `begin` event the
/// server is to send, and the page lists it and draws it to its last frame, asking for every
/// file with its token.
@Suite(
  "viewer: live mode in Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerLiveTests {
  @Test("the page follows /events and draws the session to its last frame")
  func liveSessionDrawnToTheEnd() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let recording = try ViewerRecorder.record(
      "default-slide-push", daemon: daemon, into: directory, cancelled: false)
    let frames = try String(contentsOfFile: recording, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let events =
      [
        #"{"event":"begin","session":"finished","container":[390,844],"animator":"default-slide","operation":"push","duration":0.35,"clock":"virtual","fps":60,"interactive":false}"#
      ] + frames + [#"{"event":"complete","session":"finished","finished":true}"#]

    let page = try #require(
      ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory))
    let server = try ViewerEventServer(events: events, token: "s3cret", pageDirectory: page)
    server.start()
    defer { server.stop() }
    let dom = try HeadlessChromium.dumpDOM(
      try #require(URL(string: "http://127.0.0.1:\(server.port)/?token=s3cret&fps=60")))

    let last = frames.count - 1
    #expect(dom.contains("data-status=\"ready\""))
    #expect(dom.contains("frame \(last)/\(last)"), "the read-out: \(Self.readout(dom))")
    #expect(dom.contains("finished · default-slide push · \(frames.count) frames · finished"))
    // Every layer of the last frame is on the stage, in the container size from `begin`.
    #expect(dom.contains("id=\"stage\" class=\"stage\" style=\"width: 390px; height: 844px;\""))
    for id in ["settings-navbar", "general-navbar", "default-slide.dim"] {
      #expect(dom.contains("data-id=\"\(id)\""), "\(id) is not drawn")
    }
    let log = server.log
    #expect(log.refused.isEmpty, "requests without the token: \(log.refused)")
    #expect(
      log.requests.contains { $0.hasPrefix("GET /events?session=*&fps=60&token=s3cret ") },
      "\(log.requests)")
  }

  static func readout(_ dom: String) -> String {
    guard let start = dom.range(of: "<span id=\"readout\">") else { return "none" }
    return String(dom[start.upperBound...].prefix { $0 != "<" })
  }
}
