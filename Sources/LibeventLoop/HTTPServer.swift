import CLibevent
import Glibc
import UnixIO

/// An HTTP/1.1 server on the loop: libevent's own `evhttp`, bound to one TCP address.
///
/// Only `GET` is allowed (anything else gets 405 from evhttp), request bodies are refused,
/// the request line and headers are bounded by ``Settings/maxHeaderBytes``, and a connection
/// that stays silent (or does not read what is written to it) for ``Settings/timeoutSeconds``
/// is closed. At most ``Settings/maxConnections`` connections are served: a request on one
/// more gets 503 and its connection is closed. The listening socket and the accepted sockets
/// are close-on-exec.
///
/// Each request is handed to ``onRequest`` as an ``HTTPRequest``, which answers it at once
/// (``HTTPRequest/respond(status:reason:headers:body:)``) or streams a chunked reply.
public final class HTTPServer {
  /// The bounds of the server.
  public struct Settings: Sendable {
    public var maxConnections: Int
    public var maxHeaderBytes: Int
    public var timeoutSeconds: Double

    public init(maxConnections: Int, maxHeaderBytes: Int, timeoutSeconds: Double) {
      self.maxConnections = maxConnections
      self.maxHeaderBytes = maxHeaderBytes
      self.timeoutSeconds = timeoutSeconds
    }
  }

  /// The port bound (the system's pick when 0 was asked for).
  public let port: UInt16
  /// Called on the loop with every request on a connection within the limit.
  public var onRequest: ((HTTPRequest) -> Void)?
  /// The connections served now.
  public var connectionCount: Int { connections.count }

  private let settings: Settings
  /// The loop the server runs on (its streams flush at the end of its iterations).
  private let loop: EventLoop
  private var http: OpaquePointer?
  /// Every connection that has sent a request and is still open, with its streaming request.
  private var connections: [OpaquePointer: HTTPRequest?] = [:]
  private var registration: Unmanaged<HTTPServer>?

  /// Binds `host` (a numeric address) and `port`, and serves on `loop`.
  ///
  /// - Throws: ``SystemError`` when the address is not numeric or a system call fails
  ///   (`EADDRINUSE` from `bind`).
  public init(loop: EventLoop, host: String, port: UInt16, settings: Settings) throws(SystemError) {
    self.settings = settings
    self.loop = loop
    var storage = sockaddr_storage()
    let length = clibevent_inet_address(host, port, &storage)
    guard length > 0 else { throw SystemError(errno: EINVAL, function: "inet_pton", path: host) }
    let descriptor = try retryingInterrupts("socket") {
      socket(
        Int32(storage.ss_family),
        Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      var yes: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      _ = try withUnsafePointer(to: &storage) { pointer throws(SystemError) in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          address throws(SystemError) in
          try retryingInterrupts("bind", path: "\(host):\(port)") {
            bind(descriptor, address, length)
          }
        }
      }
      try retryingInterrupts("listen") { listen(descriptor, 64) }
    } catch {
      Glibc.close(descriptor)
      throw error
    }
    self.port = clibevent_bound_port(descriptor)
    guard let http = evhttp_new(loop.base) else {
      Glibc.close(descriptor)
      throw SystemError(errno: ENOMEM, function: "evhttp_new")
    }
    self.http = http
    evhttp_set_allowed_methods(http, UInt16(EVHTTP_REQ_GET.rawValue))
    evhttp_set_max_headers_size(http, Int(settings.maxHeaderBytes))
    evhttp_set_max_body_size(http, 0)
    var timeout = timeval(
      tv_sec: Int(settings.timeoutSeconds),
      tv_usec: Int((settings.timeoutSeconds - settings.timeoutSeconds.rounded(.down)) * 1e6))
    evhttp_set_timeout_tv(http, &timeout)
    let registration = Unmanaged.passUnretained(self)
    self.registration = registration
    evhttp_set_gencb(
      http,
      { request, context in
        guard let request, let context else { return }
        Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().handle(request)
      }, registration.toOpaque())
    guard evhttp_accept_socket_with_handle(http, descriptor) != nil else {
      let code = Glibc.errno
      evhttp_free(http)
      self.http = nil
      Glibc.close(descriptor)
      throw SystemError(errno: code, function: "evhttp_accept_socket")
    }
  }

  deinit { close() }

  /// Stops listening and closes every connection (streams end without their last chunk).
  public func close() {
    guard let http else { return }
    self.http = nil
    let open = connections
    connections = [:]
    for (connection, stream) in open {
      evhttp_connection_set_closecb(connection, nil, nil)
      stream?.connectionClosed()
    }
    evhttp_free(http)
  }

  private func handle(_ pointer: OpaquePointer) {
    guard let connection = evhttp_request_get_connection(pointer) else { return }
    if connections[connection] == nil {
      if let bufferEvent = evhttp_connection_get_bufferevent(connection) {
        let descriptor = bufferevent_getfd(bufferEvent)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      }
      guard connections.count < settings.maxConnections else {
        let request = HTTPRequest(pointer, connection: connection, loop: loop)
        request.respond(
          status: 503, reason: "Service Unavailable", headers: [("Connection", "close")],
          body: Array(
            "too many HTTP connections: the limit is \(settings.maxConnections) (http.maxConnections)\n"
              .utf8))
        return
      }
      connections[connection] = .some(nil)
      evhttp_connection_set_closecb(
        connection,
        { connection, context in
          guard let connection, let context else { return }
          Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().closed(connection)
        }, registration?.toOpaque())
    }
    let request = HTTPRequest(pointer, connection: connection, loop: loop)
    request.onStreamStarted = { [unowned self] request in
      self.connections[request.connection] = .some(request)
    }
    onRequest?(request)
  }

  private func closed(_ connection: OpaquePointer) {
    guard let stream = connections.removeValue(forKey: connection) else { return }
    stream?.connectionClosed()
  }
}

@available(*, unavailable) extension HTTPServer: Sendable {}
