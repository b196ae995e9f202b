import CLibevent
import Glibc
import LineTransport

/// One request to an ``HTTPServer``: read its path and query, then either answer it at once
/// with ``respond(status:reason:headers:body:)`` or start a chunked reply with
/// ``startStream(headers:writeTimeoutSeconds:)`` and write to it until ``endStream()`` or
/// ``abort()``.
///
/// A stream's output follows the same rule as a ``Connection``'s, an ``OutputBatch``: what is
/// written during one loop iteration leaves as one chunk once the iteration's callbacks have
/// run; ``holdOutput()`` keeps it until ``flush()`` or ``flushNow()``. What is written before
/// the stream starts waits for it and leaves with the reply's head.
///
/// A streaming request learns that its connection closed through ``onClose`` (once), and
/// that its queued output was written through ``onDrained``. After the reply ends (by
/// ``respond(status:reason:headers:body:)``, ``endStream()``, ``abort()`` or a close), libevent
/// owns the request and nothing more can be sent.
public final class HTTPRequest: EndOfTurnFlushing {
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
  /// The loop the server runs on, for the end-of-iteration flush.
  private let loop: EventLoop
  /// Output not yet handed to libevent, and the rule for when it is.
  private var output = OutputBatch()
  /// True once the stream's head is out: before it, output waits.
  private var isStreaming = false
  /// True while the request is on the loop's list for the end-of-iteration flush.
  private var isFlushScheduled = false

  init(_ request: OpaquePointer, connection: OpaquePointer, loop: EventLoop) {
    self.request = request
    self.loop = loop
    self.connection = connection
    let uri = evhttp_request_get_evhttp_uri(request)
    let rawPath = uri.flatMap { evhttp_uri_get_path($0) }.map { String(cString: $0) } ?? ""
    path = rawPath.isEmpty ? "/" : rawPath
    query = uri.flatMap { evhttp_uri_get_query($0) }.map { String(cString: $0) }
  }

  /// True until the reply has ended or the connection closed.
  public var isOpen: Bool { request != nil }

  /// Bytes written to the stream that the socket has not taken yet, the batch's included.
  public var pendingOutputBytes: Int {
    guard request != nil else { return 0 }
    guard let bufferEvent = evhttp_connection_get_bufferevent(connection),
      let slowPath = bufferevent_get_output(bufferEvent)
    else { return output.count }
    return output.count + evbuffer_get_length(slowPath)
  }

  /// What was written and is still in the batch (before the stream starts: all of it).
  public var queuedOutput: [UInt8] { output.queued }

  /// Sends a complete reply and hands the request back to libevent.
  public func respond(status: Int32, reason: String, headers: [(String, String)], body: [UInt8]) {
    guard let request else { return }
    self.request = nil
    output = OutputBatch()
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
    isStreaming = true
    if output.flushNow() { sendBatch() }
  }

  /// Queues `bytes` on the stream (started or not yet): they leave with the rest of this loop
  /// iteration's output, as one chunk, unless held.
  ///
  /// - Returns: False when the reply has ended (nothing is queued).
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    guard request != nil else { return false }
    if bytes.withUnsafeBytes({ output.write($0) }) { scheduleFlush() }
    return true
  }

  /// Keeps what is written until ``flush()`` or ``flushNow()``.
  public func holdOutput() {
    guard request != nil else { return }
    output.hold()
  }

  /// True from ``holdOutput()`` until ``flush()`` or ``flushNow()``.
  public var isHoldingOutput: Bool { output.isHolding }

  /// Ends a hold: what is written leaves with the rest of this iteration's output.
  public func flush() {
    guard request != nil, output.flush() else { return }
    scheduleFlush()
  }

  /// Sends what is written now, as one chunk (once the stream has started; before, it waits
  /// for the start), and ends a hold.
  public func flushNow() {
    guard request != nil, output.flushNow(), isStreaming else { return }
    sendBatch()
  }

  func endOfTurn() {
    isFlushScheduled = false
    guard output.endOfTurn() else { return }
    if isStreaming { sendBatch() }
  }

  private func scheduleFlush() {
    guard !isFlushScheduled else { return }
    isFlushScheduled = true
    loop.scheduleFlush(self)
  }

  /// Hands the whole batch to libevent as one chunk.
  private func sendBatch() {
    guard let request, output.count > 0 else { return }
    let buffer = evbuffer_new()
    output.queued.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
    output.sent(output.count)
    if registration == nil { registration = Unmanaged.passUnretained(self) }
    evhttp_send_reply_chunk_with_cb(
      request, buffer,
      { _, context in
        guard let context else { return }
        Unmanaged<HTTPRequest>.fromOpaque(context).takeUnretainedValue().onDrained?()
      }, registration?.toOpaque())
    evbuffer_free(buffer)
  }

  /// Ends a started stream after its queued output (the last chunk); the connection then
  /// closes. ``onClose`` is not called.
  public func endStream() {
    guard let request else { return }
    if isStreaming, output.flushNow() { sendBatch() }
    self.request = nil
    onClose = nil
    onDrained = nil
    output = OutputBatch()
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
    output = OutputBatch()
    endStream()
  }

  /// The connection closed under a started stream: libevent frees the request.
  func connectionClosed() {
    guard request != nil else { return }
    request = nil
    output = OutputBatch()
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
