import Foundation
import Testing
import TransitionJSON
import TransitionRender

@testable import IntegrationSupport

/// The live page paced by its display (docs/viewer.md, "Paced by the display"), in headless
/// Chromium against the real daemon: the page fits its `requestAnimationFrame` period, maps
/// its vblanks onto the daemon's clock, draws each frame at the animation frame of its vblank
/// and reports it presented, and retimes its stream when its display drifted from the timing
/// in force.
@Suite(
  "viewer: paced by requestAnimationFrame", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ViewerPacingTests {
  /// Headless Chromium's animation frames: 60 a second.
  static let chromiumPeriod = 1.0 / 60

  @Test("the page fits 60 Hz, draws each frame at its vblank, reports it and retimes a drift")
  func framesAreDrawnAtTheirVblanks() throws {
    let viewer = try ViewerDaemon()
    defer { viewer.daemon.stop() }
    let executable = try #require(HeadlessChromium.executable)
    let browser = try HeadlessBrowser(executable: executable, width: 600, height: 900)
    defer { browser.close() }
    let page = try PacedPage(browser: browser, url: viewer.url + "&measure=pacing&stream=paced")

    #expect(try page.value("document.body.dataset.pacing") == .string("display"))
    let period = try #require(page.value("viewerPacing.current.period").numberValue)
    #expect(abs(period - Self.chromiumPeriod) < 0.0002, "fitted period \(period)")

    try Self.play("default-slide-push", session: "first", viewer)
    try Self.checkDrawn(try page.drawnFrames(of: "first"), period: period)

    // The page's display drifts by a third of a period from the timing in force: while idle,
    // the page retimes its stream, and the timing in force is its display's again.
    try page.value(
      "(viewerPacing.current = Object.assign({}, viewerPacing.current, "
        + "{ vblank: viewerPacing.current.vblank + viewerPacing.current.period / 3 }), 0)")
    try page.until("document.body.dataset.retimed === '1'")
    let drift = try #require(
      page.value(
        "(() => { const fit = viewerPacing.fitted(); "
          + "return Math.abs(displayClock.vblankPhase(fit.vblank, viewerPacing.current)); })()"
      ).numberValue)
    #expect(drift < period / 8, "drift after retiming \(drift)")
    try Self.play("default-slide-push", session: "second", viewer)
    try Self.checkDrawn(try page.drawnFrames(of: "second"), period: period)
    #expect(try page.value("document.body.dataset.refused") == .string("0"))
  }

  /// Each frame of a session as the page drew it: `t` evaluated for the vblank of the
  /// animation frame it was drawn at, none drawn twice. A busy machine's browser skips
  /// animation frames (the page then passes over the frames of the vblanks it never saw), and
  /// a session's first frame, rendered at once, comes after its vblank: those are drawn late,
  /// at the next animation frame, and are the only ones allowed off their vblank.
  static func checkDrawn(_ frames: [DrawnFrame], period: Double) throws {
    #expect(frames.count >= 4, "only \(frames.count) frames drawn")
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.seq < $1.seq }, "a frame drawn twice")
    // Every frame but the final one (which shows the session's end) is on the grid.
    #expect(frames.dropLast().allSatisfy { $0.paced }, "frames off the grid")
    // Drawn at the animation frame whose mapped timestamp is the frame's vblank.
    let offsets = frames.dropLast().map { (($0.drawnAt - $0.vblank) * 1e5).rounded() / 100 }
    let onTime = offsets.filter { abs($0) < period * 1000 / 8 }
    let late = offsets.filter { $0 > period * 1000 / 2 }
    #expect(
      onTime.count + late.count == offsets.count && late.count <= 2 && onTime.count >= 2,
      "frames drawn off their vblank (ms): \(offsets)")
  }

  /// Plays `scene` from the CLI as session `session` until it completes.
  static func play(_ scene: String, session: String, _ viewer: ViewerDaemon) throws {
    let path = try TransitionctlScene(named: scene).url.path
    let played = try TransitionctlRun.run(
      ["play", path, "--session", session, "--fps", "60", "--out", "/dev/null"],
      socket: viewer.daemon.socketPath)
    #expect(played.status == 0, "\(played.stderr)")
  }

  /// One frame the page drew (`report().drawn` of display-pacer.js).
  struct DrawnFrame {
    var seq: Int
    var vblank: Double
    var drawnAt: Double
    var paced: Bool
  }

  /// The live page in a tab of a headless browser, driven over DevTools.
  final class PacedPage {
    let devTools: DevToolsPipe
    let session: String

    /// Opens `url` and waits until the page is ready.
    init(browser: HeadlessBrowser, url: String) throws {
      devTools = browser.devTools
      let target = try devTools.call(
        "Target.createTarget", ["url": "about:blank", "newWindow": true])
      let targetID = try #require(target["targetId"]?.stringValue)
      let attached = try devTools.call(
        "Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
      session = try #require(attached["sessionId"]?.stringValue)
      try devTools.call("Page.enable", session: session)
      try devTools.call("Page.navigate", ["url": .string(url)], session: session)
      try devTools.waitForEvent("Page.loadEventFired", session: session)
      try until("window.viewerReady && document.body.dataset.status === 'ready'")
    }

    /// The value of `expression` in the page.
    @discardableResult
    func value(_ expression: String) throws -> JSONValue {
      try devTools.evaluate(expression, session: session)
    }

    /// Waits (polling in the page, 30 s at most) until `condition` holds.
    func until(_ condition: String) throws {
      let held = try value(
        """
        new Promise((resolve) => {
          const deadline = performance.now() + 30000;
          const check = () => {
            let held = false;
            try { held = !!(\(condition)); } catch (error) {}
            if (held || performance.now() > deadline) resolve(held);
            else setTimeout(check, 20);
          };
          check();
        })
        """)
      #expect(held == .bool(true), "never held: \(condition)")
    }

    /// The frames of `session` the page drew, once it drew its last.
    func drawnFrames(of session: String) throws -> [DrawnFrame] {
      try until(
        "document.getElementById('readout').textContent.includes('finished') "
          + "&& viewerPacing.queue.length === 0 "
          + "&& document.getElementById('sessions').value === '\(session)'")
      let drawn = try value(
        "viewerPacing.drawn.filter((f) => f.session === '\(session)')"
          + ".map((f) => [f.seq, f.vblank, f.drawnAt, f.paced ? 1 : 0])")
      guard case .array(let rows) = drawn else { return [] }
      return rows.compactMap { row in
        guard case .array(let n) = row, n.count == 4, let seq = n[0].numberValue,
          let vblank = n[1].numberValue, let drawnAt = n[2].numberValue,
          let paced = n[3].numberValue
        else { return nil }
        return DrawnFrame(seq: Int(seq), vblank: vblank, drawnAt: drawnAt, paced: paced == 1)
      }
    }
  }
}
