import Foundation
import TransitionViewer

/// The viewer page as built (`swift test` copies it next to the executables), driven headless
/// through its URL parameters (documented at the top of `viewer.js`).
enum ViewerHarness {
  /// Margin and gap of the page's `sheet=` layout, in CSS pixels (`SHEET_MARGIN` in viewer.js).
  static let sheetMargin = 16

  /// The built page's `index.html`.
  static func pageURL() throws -> URL {
    guard let directory = ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory)
    else {
      throw DaemonHarnessError("no viewer page under \(DaemonHarness.productsDirectory)")
    }
    return URL(fileURLWithPath: directory).appendingPathComponent("index.html")
  }

  /// The page's URL with `parameters` as its query.
  static func url(_ parameters: [(String, String)]) throws -> URL {
    var components = URLComponents(url: try pageURL(), resolvingAgainstBaseURL: false)
    components?.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
    guard let url = components?.url else { throw DaemonHarnessError("cannot build a page URL") }
    return url
  }

  /// Draws `views` side by side (`sheet=`, no captions) and returns each view's pixels.
  static func sheet(
    recording: String?, scene: String?, views: [String], container: (width: Int, height: Int)
  ) throws -> [PNGImage] {
    var parameters = [("sheet", views.joined(separator: ",")), ("captions", "0")]
    if let recording { parameters.append(("recording", recording)) }
    if let scene { parameters.append(("scene", scene)) }
    parameters.append(("container", "\(container.width),\(container.height)"))
    let width = sheetMargin + views.count * (container.width + sheetMargin)
    let height = 2 * sheetMargin + container.height
    let url = try url(parameters)
    try requireReady(url)
    let shot = try HeadlessChromium.screenshot(url, width: width, height: height)
    return views.indices.map { index in
      shot.cropped(
        x: sheetMargin + index * (container.width + sheetMargin), y: sheetMargin,
        width: container.width, height: container.height)
    }
  }

  /// Fails with the page's own message unless it loaded the parameters without error.
  static func requireReady(_ url: URL) throws {
    let dom = try HeadlessChromium.dumpDOM(url)
    guard dom.contains("data-status=\"ready\"") else {
      let message = dom.range(of: "<span id=\"message\">").map {
        String(dom[$0.upperBound...].prefix { $0 != "<" })
      }
      throw DaemonHarnessError("the viewer did not draw \(url): \(message ?? "no status")")
    }
  }

  /// What the browser drew for every frame of a session of `recording` (`measure=all`).
  static func measure(recording: String, session: String? = nil, container: (Int, Int)? = nil)
    throws -> ViewerMeasurements
  {
    var parameters = [("recording", recording), ("measure", "all")]
    if let session { parameters.append(("session", session)) }
    if let container { parameters.append(("container", "\(container.0),\(container.1)")) }
    let dom = try HeadlessChromium.dumpDOM(try url(parameters))
    guard let start = dom.range(of: "<pre id=\"measurements\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else { throw DaemonHarnessError("the viewer wrote no measurements") }
    let text = dom[start.upperBound..<end.lowerBound]
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
    guard !text.isEmpty else {
      throw DaemonHarnessError("the viewer measured nothing: \(dom.suffix(500))")
    }
    return try JSONDecoder().decode(ViewerMeasurements.self, from: Data(text.utf8))
  }
}

/// What the page reports with `measure=all`: per frame, per layer, what the browser drew, in
/// container coordinates (CSS pixels).
struct ViewerMeasurements: Decodable {
  struct Layer: Decodable {
    let id: String
    /// The bounding box of the drawn layer: x, y, width, height.
    let rect: [Double]
    /// The drawn corners, top-left, top-right, bottom-right, bottom-left, each [x, y].
    let quad: [[Double]]
    let opacity: Double
    let visible: Bool

    /// The opacity it is drawn with: 0 when hidden.
    var drawnOpacity: Double { visible ? opacity : 0 }
  }

  struct Frame: Decodable {
    let seq: Int
    let t: Double
    let progress: Double
    let layers: [Layer]

    func layer(_ id: String) -> Layer? { layers.first { $0.id == id } }
  }

  let session: String
  let container: [Double]
  let frames: [Frame]
}

extension PNGImage {
  /// The pixels of a rectangle of the image.
  func cropped(x: Int, y: Int, width: Int, height: Int) -> PNGImage {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for row in y..<(y + height) {
      let start = (row * self.width + x) * 4
      bytes += pixels[start..<(start + width * 4)]
    }
    return PNGImage(width: width, height: height, pixels: bytes)
  }

  /// How two images of one size differ: the number of pixels whose largest channel difference
  /// exceeds `threshold`, and the largest channel difference of all.
  func difference(from other: PNGImage, threshold: Int) -> (pixels: Int, largest: Int) {
    precondition(width == other.width && height == other.height)
    var count = 0
    var largest = 0
    var index = 0
    while index < pixels.count {
      var worst = 0
      for channel in 0..<3 {
        worst = max(worst, abs(Int(pixels[index + channel]) - Int(other.pixels[index + channel])))
      }
      if worst > threshold { count += 1 }
      largest = max(largest, worst)
      index += 4
    }
    return (count, largest)
  }
}

extension PNGImage {
  /// How much of the image changes to `other`: the sum over pixels of their largest channel
  /// change divided by 255, i.e. the area in pixels that changed completely.
  func changedArea(to other: PNGImage) -> Double {
    precondition(width == other.width && height == other.height)
    var total = 0
    var index = 0
    while index < pixels.count {
      var worst = 0
      for channel in 0..<3 {
        worst = max(worst, abs(Int(pixels[index + channel]) - Int(other.pixels[index + channel])))
      }
      total += worst
      index += 4
    }
    return Double(total) / 255
  }
}
