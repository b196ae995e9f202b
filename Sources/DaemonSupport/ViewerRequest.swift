import Foundation
import TransitionWire

/// What one HTTP request to the daemon's viewer listener asks for (the daemon's HTTP edge: the
/// server core knows nothing of HTTP), decided from its path and query
/// alone (docs/viewer.md, "Live"): the token comes first, then the route. Only `GET` (and
/// `HEAD`) reach this point, and nothing here can change the server's state: the one thing
/// besides files is a wall-clock subscription.
public enum ViewerRequest: Equatable, Sendable {
  /// One of the page's files (`/` is `index.html`).
  case page(fileName: String)
  /// `/images/NAME`: a picture of the configured images directory (`http.images`), NAME
  /// percent-decoded and checked by ``isServableImageName(_:)``.
  case image(fileName: String)
  /// `/events`: Server-Sent Events of one session (`session=ID`) or of every session (nil,
  /// `session=*`), on the wall clock at `fps`; `timeline=1` puts the session's timeline in each
  /// `begin` event; `encoding=delta` asks for delta frames (docs/protocol.md, "Delta frames"),
  /// `encoding=full` (the default) for full ones; `period=P&vblank=V` (and `lead=L`) paces
  /// the frames by the reader's display (docs/protocol.md, "Display pacing"), its numbers
  /// checked by the server core as `subscribe`'s `display`.
  case events(
    session: String?, fps: Double, timeline: Bool = false, encoding: FrameEncoding = .full,
    display: Display? = nil)
  /// `/clock`: the daemon's clock now, `{"now":…}`, for mapping the reader's clock to it.
  case clock
  /// No or a wrong `token`: 403.
  case forbidden
  /// A path that is not the page's nor `/events`: 404.
  case notFound
  /// `/events` with a bad `session`, `fps`, `encoding` or display timing: 400, with the
  /// reason.
  case badRequest(String)

  /// The display timing an `/events` request gives, as numbers (in seconds, on the daemon's
  /// clock).
  public struct Display: Equatable, Sendable {
    public var period: Double
    public var vblank: Double
    public var lead: Double?

    public init(period: Double, vblank: Double, lead: Double? = nil) {
      self.period = period
      self.vblank = vblank
      self.lead = lead
    }
  }

  /// Decides a request.
  ///
  /// - Parameters:
  ///   - path: The request's path, not decoded (`/`, `/viewer.js`, `/events`).
  ///   - query: The raw query string after `?`, or nil.
  ///   - token: The listener's token; the query's `token` must equal it.
  ///   - pageFiles: The page's file names (``TransitionViewer/ViewerPage/fileNames``).
  ///   - defaultFps: The rate of an `/events` request that names none.
  public init(
    path: String, query: String?, token: [UInt8], pageFiles: [String], defaultFps: Double
  ) {
    let fields = Self.fields(of: query ?? "")
    guard let given = fields["token"], Self.tokensMatch(Array(given.utf8), token) else {
      self = .forbidden
      return
    }
    switch path {
    case "/": self = .page(fileName: "index.html")
    case "/events":
      var fps = defaultFps
      if let text = fields["fps"] {
        guard let value = Double(text), FrameRate.range.contains(value) else {
          self = .badRequest("fps must be a number in [1, 240], got \"\(text)\"")
          return
        }
        fps = value
      }
      let target = fields["session"] ?? "*"
      if target != "*", let problem = SessionID.problem(with: target) {
        self = .badRequest(problem)
        return
      }
      let encodingName = fields["encoding"] ?? FrameEncoding.full.rawValue
      guard let encoding = FrameEncoding(rawValue: encodingName) else {
        self = .badRequest("encoding must be \"full\" or \"delta\", got \"\(encodingName)\"")
        return
      }
      var display: Display?
      if fields["period"] != nil || fields["vblank"] != nil || fields["lead"] != nil {
        let number = { (name: String) in
          fields[name].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        }
        guard let period = number("period"), let vblank = number("vblank"),
          fields["lead"] == nil || number("lead") != nil
        else {
          self = .badRequest(
            "period and vblank (and lead) must be numbers of seconds, given together")
          return
        }
        display = Display(period: period, vblank: vblank, lead: number("lead"))
      }
      self = .events(
        session: target == "*" ? nil : target, fps: fps, timeline: fields["timeline"] == "1",
        encoding: encoding, display: display)
    case "/clock": self = .clock
    case _ where path.hasPrefix(Self.imagesPrefix):
      let encoded = path.dropFirst(Self.imagesPrefix.count)
      guard let name = String(encoded).removingPercentEncoding, Self.isServableImageName(name)
      else {
        self = .notFound
        return
      }
      self = .image(fileName: name)
    default:
      let name = String(path.dropFirst())
      self = path.hasPrefix("/") && pageFiles.contains(name) ? .page(fileName: name) : .notFound
    }
  }

  /// The plain-text reply of a refused request (403, 404 or 400 with its reason), as the
  /// listener sends it; nil for what it serves (a file or an event stream). The message is one
  /// line: a line break of the request's own text is replaced, so nothing the request says can
  /// start a line of the reply.
  public var refusal: (status: Int32, reason: String, message: String)? {
    switch self {
    case .forbidden:
      (403, "Forbidden", "a valid token is required (see the daemon's log)")
    case .notFound: (404, "Not Found", "not found")
    case .badRequest(let message):
      (
        400, "Bad Request",
        String(
          message.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
      )
    case .page, .image, .events, .clock: nil
    }
  }

  /// Where pictures are served.
  public static let imagesPrefix = "/images/"

  /// The media types of the pictures served, by extension (lower case). No SVG: it can carry
  /// script.
  public static let imageMediaTypes: [String: String] = [
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
    "webp": "image/webp",
  ]

  /// Whether `name` may be served from the images directory: one file name (no `/`), at most
  /// 255 bytes of letters, digits, `-`, `_`, `.` and spaces, not starting with `.` (so neither
  /// `..` nor hidden files), with one of the ``imageMediaTypes`` extensions.
  public static func isServableImageName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("."),
      name.unicodeScalars.allSatisfy({ scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-_. ".unicodeScalars.contains(scalar))
      }),
      let dot = name.lastIndex(of: ".")
    else { return false }
    return imageMediaTypes[name[name.index(after: dot)...].lowercased()] != nil
  }

  /// The query's fields, percent-decoded (`+` is a space); of a repeated name the last wins,
  /// and a field that does not decode is left out.
  static func fields(of query: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (text: Substring) in
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
      }
      guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : ""
      else { continue }
      fields[name] = value
    }
    return fields
  }

  /// Compares two tokens in time that depends only on their lengths, never on where they
  /// differ, so that response times reveal nothing of the token.
  public static func tokensMatch(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
    guard given.count == expected.count, !expected.isEmpty else { return false }
    var difference: UInt8 = 0
    for index in expected.indices {
      difference |= given[index] ^ expected[index]
    }
    return difference == 0
  }
}
