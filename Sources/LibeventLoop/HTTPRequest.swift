import CLibevent
import Glibc

/// One request to an ``HTTPServer``: read its path and query, then either answer it at once
/// with ``respond(status:reason:headers:body:)`` or start a chunked reply with
/// ``startStream(headers:)`` and send chunks until ``endStream()`` or ``abort()``.
///
/// A streaming request learns that its connection closed through ``onClose`` (once), and
/// that its queued output was written through ``onDrained``. After the reply ends (by
/// ``respond(status:reason:headers:body:)``, ``endStream()``, ``abort()`` or a close), libevent
/// owns the request and nothing more can be sent.
public final class HTTPRequest {
  /// The `struct evhttp_connection *` the request arrived on.
  let connection: OpaquePointer
  private var request: OpaquePointer?
  /// The request's path, as sent (not percent-decoded); `/` when it has none.
  public let path: String
  /// The query after `?`, as sent, or nil.
  public let query: String?
  /// Called once when the connection of a streaming reply closes (the other side left, a
  /// write failed or timed out, or the server closed); not after ``endStream()`` or
  /// ``abort()``.
  public var onClose: (() -> Void)?
  /// Called when a streaming reply's queued output has been written.
  public var onDrained: (() -> Void)?
  /// Set by the server: records the stream so that its close is reported.
  var onStreamStarted: ((HTTPRequest) -> Void)?
  private var registration: Unmanaged<HTTPRequest>?

  init(_ request: OpaquePointer, connection: OpaquePointer) {
    self.request = request
    self.connection = connection
    let uri = evhttp_request_get_evhttp_uri(request)
    let rawPath = uri.flatMap { evhttp_uri_get_path($0) }.map { String(cString: $0) } ?? ""
    path = rawPath.isEmpty ? "/" : rawPath
    query = uri.flatMap { evhttp_uri_get_query($0) }.map { String(cString: $0) }
  }

  /// True until the reply has ended or the connection closed.
  public var isOpen: Bool { request != nil }

  /// Bytes queued on the connection that the socket has not taken yet.
  public var pendingOutputBytes: Int {
    guard request != nil, let bufferEvent = evhttp_connection_get_bufferevent(connection),
      let output = bufferevent_get_output(bufferEvent)
    else { return 0 }
    return evbuffer_get_length(output)
  }

  /// Sends a complete reply and hands the request back to libevent.
  public func respond(status: Int32, reason: String, headers: [(String, String)], body: [UInt8]) {
    guard let request else { return }
    self.request = nil
    add(headers, to: request)
    let buffer = evbuffer_new()
    body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
    evhttp_send_reply(request, status, reason, buffer)
    evbuffer_free(buffer)
  }

  /// Starts a chunked `200 OK` reply with `headers`; its connection closes when the reply
  /// ends. The connection's read timeout is lifted (a stream's reader sends nothing); the
  /// write timeout stays, so a reader that stops reading is dropped.
  public func startStream(headers: [(String, String)], writeTimeoutSeconds: Double) {
    guard let request else { return }
    add(headers + [("Connection", "close")], to: request)
    evhttp_send_reply_start(request, 200, "OK")
    if let bufferEvent = evhttp_connection_get_bufferevent(connection) {
      var write = timeval(tv_sec: Int(writeTimeoutSeconds), tv_usec: 0)
      bufferevent_set_timeouts(bufferEvent, nil, &write)
    }
    onStreamStarted?(self)
    onStreamStarted = nil
  }

  /// Queues one chunk of a started stream.
  ///
  /// - Returns: False when the stream has ended (nothing is queued).
  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    guard let request else { return false }
    let buffer = evbuffer_new()
    bytes.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
    if registration == nil { registration = Unmanaged.passUnretained(self) }
    evhttp_send_reply_chunk_with_cb(
      request, buffer,
      { _, context in
        guard let context else { return }
        Unmanaged<HTTPRequest>.fromOpaque(context).takeUnretainedValue().onDrained?()
      }, registration?.toOpaque())
    evbuffer_free(buffer)
    return true
  }

  /// Ends a started stream after its queued output (the last chunk); the connection then
  /// closes. ``onClose`` is not called.
  public func endStream() {
    guard let request else { return }
    self.request = nil
    onClose = nil
    onDrained = nil
    evhttp_send_reply_end(request)
  }

  /// Ends a started stream now: the socket is shut down, queued output is lost, and libevent
  /// frees the connection when it notices. ``onClose`` is not called.
  public func abort() {
    guard request != nil else { return }
    if let bufferEvent = evhttp_connection_get_bufferevent(connection) {
      let descriptor = bufferevent_getfd(bufferEvent)
      if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
    endStream()
  }

  /// The connection closed under a started stream: libevent frees the request.
  func connectionClosed() {
    guard request != nil else { return }
    request = nil
    onDrained = nil
    let handler = onClose
    onClose = nil
    handler?()
  }

  private func add(_ headers: [(String, String)], to request: OpaquePointer) {
    guard let output = evhttp_request_get_output_headers(request) else { return }
    for (name, value) in headers { evhttp_add_header(output, name, value) }
  }
}

@available(*, unavailable) extension HTTPRequest: Sendable {}
