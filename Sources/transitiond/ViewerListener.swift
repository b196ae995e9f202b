import DaemonSupport
import Foundation
import Glibc
import LibeventLoop
import TransitionJSON
import TransitionServer
import TransitionViewer
import TransitionWire
import UnixIO

/// The daemon's HTTP listener for the viewer (config `http`, docs/viewer.md "Live"): libevent's
/// `evhttp` on the daemon's own loop, bound to a loopback address, serving the viewer page's
/// files and `/events`, the frames as Server-Sent Events.
///
/// Every request must carry the listener's random token (`?token=…`, compared in constant
/// time) or gets 403. Only `GET` is served and nothing over HTTP changes state beyond a
/// reader's own stream: an `/events` request becomes an ``EventStreamPeer`` that the core
/// subscribes on the wall clock, under the same slow-subscriber policy and client limits as a
/// socket client; one opened with `stream=NAME` can be retimed (`/display`) and told when its
/// frames were presented (`/presented`) by that name.
final class ViewerListener {
  /// The viewer's URL with its token: `http://127.0.0.1:7878/?token=…`.
  let url: String
  private let server: HTTPServer
  private let token: [UInt8]
  private let pageDirectory: String?
  /// `http.images`: the pictures served at `/images/NAME`, or nil.
  private let imagesDirectory: String?
  /// The config's `http`, which each event stream keeps to.
  private let settings: HTTPSettings
  private unowned let core: ServerCore
  private let loop: EventLoop
  private let logger: Logger
  private var streams: [UInt64: EventStreamPeer] = [:]
  /// The open streams that a reader named (`stream=NAME`), by name.
  private var namedStreams: [String: EventStreamPeer] = [:]
  private var keepAliveTimer: LoopTimer?

  /// Binds `address` and starts serving.
  ///
  /// - Parameter pageDirectory: Where the page's files are; nil serves 404 for them (the
  ///   event stream still works).
  /// - Throws: ``SystemError`` when the address cannot be bound or no random token can be
  ///   read.
  init(
    address: HTTPListenAddress, settings: HTTPSettings, pageDirectory: String?, loop: EventLoop,
    core: ServerCore, logger: Logger
  ) throws {
    token = Array(try Self.randomToken().utf8)
    self.pageDirectory = pageDirectory
    imagesDirectory = settings.images
    self.settings = settings
    self.core = core
    self.loop = loop
    self.logger = logger
    server = try HTTPServer(
      loop: loop, host: address.host, port: address.port,
      settings: HTTPServer.Settings(
        maxConnections: settings.maxConnections, maxHeaderBytes: settings.maxHeaderBytes,
        timeoutSeconds: settings.timeoutSeconds))
    url =
      "http://\(address.authority(port: server.port))/?token=\(String(decoding: token, as: UTF8.self))"
    server.onRequest = { [unowned self] request in self.handle(request) }
    let timer = try LoopTimer(loop: loop) { [unowned self] in
      for stream in self.streams.values { stream.keepAlive() }
    }
    timer.scheduleRepeating(every: settings.keepAliveSeconds, startingAt: loop.now)
    keepAliveTimer = timer
  }

  /// Stops listening and closes every HTTP connection.
  func close() {
    keepAliveTimer?.cancel()
    keepAliveTimer = nil
    for stream in Array(streams.values) { stream.close() }
    streams = [:]
    namedStreams = [:]
    server.close()
  }

  private func handle(_ request: HTTPRequest) {
    let decision = ViewerRequest(
      path: request.path, query: request.query, token: token, pageFiles: ViewerPage.fileNames,
      defaultFps: core.config.defaultFps)
    if let refusal = decision.refusal {
      if decision == .forbidden { logger.debug("HTTP \(request.path): refused, no valid token") }
      return plain(request, refusal.status, refusal.reason, refusal.message)
    }
    switch decision {
    case .forbidden, .notFound, .badRequest:
      break
    case .page(let name):
      servePage(name, to: request)
    case .image(let name):
      serveImage(name, to: request)
    case .events(let session, let fps, let timeline, let encoding, let display, let stream):
      openEventStream(
        request, session: session, fps: fps, timeline: timeline, encoding: encoding,
        display: display, name: stream)
    case .display(let name, let display):
      answer(request, stream: name) { peer throws(WireError) in
        let timing = try core.retimeEventStream(
          peer, period: display.period, vblank: display.vblank, lead: display.lead)
        return .object(["display": timing])
      }
    case .presented(let name, let session, let seq, let time):
      answer(request, stream: name) { peer throws(WireError) in
        try core.reportEventStreamPresentation(peer, session: session, seq: seq, time: time)
        return .object(["ok": .bool(true)])
      }
    case .clock:
      json(request, .object(["now": .number(core.currentTime)]))
    }
  }

  /// Answers a request about the open stream named `name` with `body`'s JSON, or with the
  /// refusal: 404 when no open stream has that name, 400 with the core's code and message.
  private func answer(
    _ request: HTTPRequest, stream name: String,
    _ body: (EventStreamPeer) throws(WireError) -> JSONValue
  ) {
    guard let peer = namedStreams[name], peer.isOpen else {
      return plain(request, 404, "Not Found", "no open event stream \(name)")
    }
    do throws(WireError) {
      json(request, try body(peer))
    } catch {
      plain(request, 400, "Bad Request", "\(error.code.rawValue): \(error.message)")
    }
  }

  private func json(_ request: HTTPRequest, _ value: JSONValue) {
    request.respond(
      status: 200, reason: "OK",
      headers: [
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
      ],
      body: Array((value.serialized + "\n").utf8))
  }

  private func servePage(_ name: String, to request: HTTPRequest) {
    guard let pageDirectory, let type = ViewerPage.mediaType(of: name),
      let data = FileManager.default.contents(atPath: pageDirectory + "/" + name)
    else {
      return plain(request, 404, "Not Found", "the viewer page is not installed")
    }
    request.respond(
      status: 200, reason: "OK",
      headers: [
        ("Content-Type", type), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
      ], body: Array(data))
  }

  /// The largest picture served; a bigger file is 404 like a missing one.
  static let maxImageBytes = 8 << 20

  /// Serves `name` from `http.images`: a regular file directly in it, opened with
  /// `O_NOFOLLOW` so that a symbolic link (to anywhere) is refused, at most ``maxImageBytes``.
  /// The file is read on the loop's thread: pictures are small.
  private func serveImage(_ name: String, to request: HTTPRequest) {
    guard let directory = imagesDirectory,
      let dot = name.lastIndex(of: "."),
      let type = ViewerRequest.imageMediaTypes[name[name.index(after: dot)...].lowercased()]
    else {
      return plain(request, 404, "Not Found", "no images directory is configured (http.images)")
    }
    let descriptor = open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return plain(request, 404, "Not Found", "no such picture") }
    defer { Glibc.close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      info.st_size <= Self.maxImageBytes
    else {
      return plain(request, 404, "Not Found", "no such picture")
    }
    var body = [UInt8](repeating: 0, count: Int(info.st_size))
    var filled = 0
    while filled < body.count {
      let count = body[filled...].withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return plain(request, 404, "Not Found", "no such picture") }
      filled += count
    }
    request.respond(
      status: 200, reason: "OK",
      headers: [
        ("Content-Type", type), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
      ], body: body)
  }

  private func openEventStream(
    _ request: HTTPRequest, session: String?, fps: Double, timeline: Bool,
    encoding: FrameEncoding, display: ViewerRequest.Display?, name: String?
  ) {
    if let name, namedStreams[name]?.isOpen == true {
      return plain(request, 400, "Bad Request", "the event stream \(name) is open already")
    }
    let peer = EventStreamPeer(
      id: loop.makeConnectionID(), request: request, core: core, limits: core.config.limits,
      http: settings)
    // Refused by the core's client limits: the peer has answered 503 already.
    guard core.connect(peer) else { return }
    do throws(WireError) {
      try core.subscribeEventStream(
        peer, session: session, fps: fps, timeline: timeline, encoding: encoding,
        display: display.map { (period: $0.period, vblank: $0.vblank, lead: $0.lead) })
    } catch {
      let status: (Int32, String) =
        switch error.code {
        case .unknownSession: (404, "Not Found")
        case .limitExceeded: (503, "Service Unavailable")
        default: (400, "Bad Request")
        }
      peer.refuse(
        status: status.0, reason: status.1, message: "\(error.code.rawValue): \(error.message)")
      return
    }
    guard peer.isOpen else { return }
    streams[peer.id] = peer
    if let name { namedStreams[name] = peer }
    peer.onEnded = { [unowned self] peer in
      self.streams[peer.id] = nil
      if let name, self.namedStreams[name] === peer { self.namedStreams[name] = nil }
    }
    peer.startStreaming()
    logger.debug(
      "HTTP event stream \(peer.id) for \(session ?? "*") at \(fps) fps, \(encoding.rawValue) frames"
    )
  }

  private func plain(_ request: HTTPRequest, _ status: Int32, _ reason: String, _ message: String) {
    request.respond(
      status: status, reason: reason,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
      body: Array((message + "\n").utf8))
  }

  /// 32 random bytes from the kernel (`/dev/urandom`), as 64 hex digits.
  static func randomToken() throws -> String {
    let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SystemError(errno: errno, function: "open", path: "/dev/urandom")
    }
    defer { Glibc.close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 32)
    var filled = 0
    while filled < bytes.count {
      let count = bytes[filled...].withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        throw SystemError(errno: count < 0 ? errno : EIO, function: "read", path: "/dev/urandom")
      }
      filled += count
    }
    return bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

@available(*, unavailable) extension ViewerListener: Sendable {}
