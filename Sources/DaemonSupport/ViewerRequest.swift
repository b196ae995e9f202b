import Foundation
import TransitionWire

/// What one HTTP request to the daemon's viewer listener asks for (the daemon's HTTP edge: the
/// server core knows nothing of HTTP), decided from its path and query
/// alone (docs/viewer.md, "Live"): the token comes first, then the route. Only `GET` (and
/// `HEAD`) reach this point, and nothing here can change the server's state beyond the
/// reader's own event stream: a wall-clock subscription, its display timing and its
/// presentation reports.
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
  /// checked by the server core as `subscribe`'s `display`; `stream=NAME` names the stream
  /// for `/display` and `/presented` (``problem(withStreamName:)``).
  case events(
    session: String?, fps: Double, timeline: Bool = false, encoding: FrameEncoding = .full,
    display: Display? = nil, stream: String? = nil)
  /// `/clock`: the daemon's clock now, `{"now":…}`, for mapping the reader's clock to it.
  case clock
  /// `/display?stream=NAME&period=P&vblank=V` (and `lead=L`): the display timing of the open
  /// event stream named NAME changes (the `display` op).
  case display(stream: String, display: Display)
  /// `/presented?stream=NAME&session=ID&seq=N&time=T`: frame `seq` of `session`, sent on the
  /// display-paced event stream named NAME, was presented at `time` (the `presented` op).
  case presented(stream: String, session: String, seq: Int, time: Double)
  /// No or a wrong `token`: 403.
  case forbidden
  /// A path that is not the page's nor a route: 404.
  case notFound
  /// `/events`, `/display` or `/presented` with a bad `session`, `fps`, `encoding`, display
  /// timing, stream name or report: 400, with the reason.
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
        guard let timing = Self.display(in: fields) else {
          self = .badRequest(Self.displayProblem)
          return
        }
        display = timing
      }
      if let stream = fields["stream"], let problem = Self.problem(withStreamName: stream) {
        self = .badRequest(problem)
        return
      }
      self = .events(
        session: target == "*" ? nil : target, fps: fps, timeline: fields["timeline"] == "1",
        encoding: encoding, display: display, stream: fields["stream"])
    case "/display":
      guard let stream = Self.stream(in: fields) else {
        self = .badRequest(Self.streamProblem)
        return
      }
      guard let display = Self.display(in: fields) else {
        self = .badRequest(Self.displayProblem)
        return
      }
      self = .display(stream: stream, display: display)
    case "/presented":
      guard let stream = Self.stream(in: fields) else {
        self = .badRequest(Self.streamProblem)
        return
      }
      guard let session = fields["session"], SessionID.problem(with: session) == nil,
        let seq = fields["seq"].flatMap({ Int($0) }), seq >= 0,
        let time = fields["time"].flatMap(Double.init), time.isFinite
      else {
        self = .badRequest(
          "presented takes session (an id), seq (a whole number) and time (seconds)")
        return
      }
      self = .presented(stream: stream, session: session, seq: seq, time: time)
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
    case .page, .image, .events, .clock, .display, .presented: nil
    }
  }

  /// Why `name` cannot name an event stream, or nil when it can: 1 to 64 ASCII letters,
  /// digits, `_` and `-` (the reader picks it, for `/display` and `/presented`).
  public static func problem(withStreamName name: String) -> String? {
    guard (1...64).contains(name.utf8.count),
      name.utf8.allSatisfy({ byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      })
    else { return streamProblem + ", got \"\(name)\"" }
    return nil
  }

  /// The query's `stream`, when it is a valid stream name.
  private static func stream(in fields: [String: String]) -> String? {
    fields["stream"].flatMap { problem(withStreamName: $0) == nil ? $0 : nil }
  }

  /// The query's `period`, `vblank` and `lead` as a display timing, or nil when they are not
  /// numbers given together (``displayProblem``).
  private static func display(in fields: [String: String]) -> Display? {
    let number = { (name: String) in
      fields[name].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    }
    guard let period = number("period"), let vblank = number("vblank"),
      fields["lead"] == nil || number("lead") != nil
    else { return nil }
    return Display(period: period, vblank: vblank, lead: number("lead"))
  }

  private static let displayProblem =
    "period and vblank (and lead) must be numbers of seconds, given together"
  private static let streamProblem =
    "stream must name an event stream: 1 to 64 of A-Z a-z 0-9 _ -"

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
