import Foundation
import TransitionJSON

/// The viewer page in one tab of a ``HeadlessBrowser``, in its render view (`render=1`): the
/// stage alone at the top left, every frame of one session drawn on demand and captured.
///
/// Capture is deterministic, one frame at a time: ``capture(frame:)`` draws the frame on an empty
/// stage (the page's layers are made anew for each frame, so none is rastered as it was for the
/// frame before), awaits `document.fonts.ready`, the pictures and two `requestAnimationFrame`s
/// (so that the frame has been painted), then takes `Page.captureScreenshot` of the stage until
/// two in a row agree. Never a screencast.
///
/// Each capture opens its own window (a tab of its own that stays visible, so that its
/// animation frames keep coming while another tab works): several of them share one browser,
/// each used by one thread at a time (``CapturePool``).
public final class ViewerCapture: @unchecked Sendable {
  private let devTools: DevToolsPipe
  private let session: String
  private let targetID: String
  /// The captured size in pixels: the container times the scale, rounded.
  public let pixelSize: (width: Int, height: Int)
  private let container: (width: Double, height: Double)

  /// What the page is asked to show.
  public struct Page: Sendable {
    /// The viewer's `index.html`.
    public var viewer: URL
    /// The recording (NDJSON) to open.
    public var recording: URL
    /// Its session to draw.
    public var session: String
    /// The container, in points.
    public var container: (width: Double, height: Double)
    /// Device pixels per point.
    public var scale: Double
    /// The stage's colour behind the layers, `#rrggbb`.
    public var background: String
    /// Where the scene's `content.image` files are, if anywhere.
    public var images: URL?
    /// Whether layers' content is drawn (false: geometry and colours only).
    public var drawsContent: Bool

    public init(
      viewer: URL, recording: URL, session: String, container: (width: Double, height: Double),
      scale: Double, background: String, images: URL?, drawsContent: Bool = true
    ) {
      self.drawsContent = drawsContent
      self.viewer = viewer
      self.recording = recording
      self.session = session
      self.container = container
      self.scale = scale
      self.background = background
      self.images = images
    }

    /// The page's URL with its parameters (docs/viewer.md, "URL parameters").
    public var url: URL {
      var components = URLComponents(url: viewer, resolvingAgainstBaseURL: false)!
      var items = [
        URLQueryItem(name: "render", value: "1"),
        URLQueryItem(name: "recording", value: recording.absoluteString),
        URLQueryItem(name: "session", value: session),
        URLQueryItem(name: "background", value: background),
      ]
      if !drawsContent { items.append(URLQueryItem(name: "content", value: "0")) }
      if let images {
        var base = images.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        items.append(URLQueryItem(name: "images", value: base))
      }
      components.queryItems = items
      return components.url!
    }
  }

  /// Opens `page` in a new tab of `browser` and waits until the page has loaded the recording.
  ///
  /// - Throws: ``DevToolsPipe/Failure``, with the page's own message when it could not open the
  ///   recording.
  public init(browser: HeadlessBrowser, page: Page) throws(DevToolsPipe.Failure) {
    devTools = browser.devTools
    container = page.container
    pixelSize = (
      Int((page.container.width * page.scale).rounded()),
      Int((page.container.height * page.scale).rounded())
    )
    let target = try devTools.call(
      "Target.createTarget",
      [
        "url": "about:blank", "newWindow": true,
        "width": .number(max(Self.smallestWindow, page.container.width.rounded(.up))),
        "height": .number(max(Self.smallestWindow, page.container.height.rounded(.up))),
      ])
    guard let targetID = target["targetId"]?.stringValue else {
      throw DevToolsPipe.Failure(description: "Target.createTarget gave no targetId")
    }
    let attached = try devTools.call(
      "Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
    guard let session = attached["sessionId"]?.stringValue else {
      throw DevToolsPipe.Failure(description: "Target.attachToTarget gave no sessionId")
    }
    self.session = session
    self.targetID = targetID
    try devTools.call("Page.enable", session: session)
    try devTools.call(
      "Emulation.setDeviceMetricsOverride",
      [
        "width": .number(max(Self.smallestWindow, page.container.width.rounded(.up))),
        "height": .number(max(Self.smallestWindow, page.container.height.rounded(.up))),
        "deviceScaleFactor": .number(page.scale), "mobile": false,
      ], session: session)
    try devTools.call("Page.navigate", ["url": .string(page.url.absoluteString)], session: session)
    try devTools.waitForEvent("Page.loadEventFired", session: session)
    let status = try evaluate(
      """
      new Promise((resolve) => {
        const check = () => window.viewerReady
          ? window.viewerReady.then(() => resolve(document.body.dataset.status + ":" +
              document.getElementById("message").textContent))
          : setTimeout(check, 5);
        check();
      })
      """)
    guard let text = status.stringValue, text.hasPrefix("ready:") else {
      let message = status.stringValue.map { String($0.drop { $0 != ":" }.dropFirst()) } ?? ""
      throw DevToolsPipe.Failure(description: "the viewer page cannot show it: \(message)")
    }
  }

  /// Closes the tab (its browser stays open).
  public func close() {
    _ = try? devTools.call("Target.closeTarget", ["targetId": .string(targetID)])
  }

  /// Draws frame `frame` (an index into the session's frames) and returns the stage as PNG
  /// bytes.
  public func capture(frame: Int) throws(DevToolsPipe.Failure) -> [UInt8] {
    let shown = try evaluate("window.viewerRender.show(\(frame))")
    guard shown.numberValue == Double(frame) else {
      throw DevToolsPipe.Failure(
        description: "the viewer page did not draw frame \(frame): \(shown)")
    }
    // On a busy machine the compositor can show a layer rastered as it was a frame or two
    // before (its edges differ by a few levels): take screenshots, a pair of animation frames
    // apart, until two in a row agree, and keep that settled picture.
    var previous = try screenshot()
    for _ in 0..<Self.settleAttempts {
      try evaluate(
        "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))")
      let next = try screenshot()
      if next == previous { return next }
      previous = next
    }
    return previous
  }

  /// The least width and height of a capture's window, in points: headless Chromium 156 never
  /// answered a screenshot of a new window 40 × 30 points in size (one of 500 × 500 showing
  /// the same 40 × 30 viewport did). The viewport, and so the picture, is the container's size
  /// whatever the window's.
  static let smallestWindow = 500.0

  /// How many more screenshots a frame may take while waiting for two in a row to agree.
  static let settleAttempts = 8

  /// The stage as PNG bytes, as the compositor shows it now.
  private func screenshot() throws(DevToolsPipe.Failure) -> [UInt8] {
    let shot = try devTools.call(
      "Page.captureScreenshot",
      [
        "format": "png", "fromSurface": true, "captureBeyondViewport": false,
        "optimizeForSpeed": true,
        "clip": [
          "x": 0, "y": 0, "width": .number(container.width),
          "height": .number(container.height), "scale": 1,
        ],
      ], session: session)
    guard let base64 = shot["data"]?.stringValue, let data = Data(base64Encoded: base64) else {
      throw DevToolsPipe.Failure(description: "Page.captureScreenshot gave no PNG")
    }
    return Array(data)
  }

  /// Evaluates `expression` in the page (``DevToolsPipe/evaluate(_:session:)``).
  @discardableResult
  private func evaluate(_ expression: String) throws(DevToolsPipe.Failure) -> JSONValue {
    try devTools.evaluate(expression, session: session)
  }
}
