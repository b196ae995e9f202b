import CLibevent
import DaemonSupport
import TransitionServer
import TransitionViewer
import TransitionWire

/// The fuzzer's check of the viewer's HTTP request path (docs/security.md, "Fuzzing"):
/// arbitrary bytes read as the head of an HTTP request, taken where libevent's `evhttp` takes
/// it and on through the daemon's decision and its reply.
///
/// The request line is cut as evhttp cuts it (method, target and version, split at single
/// spaces); a `GET` goes on with its target parsed by evhttp's own URI parser
/// (`evhttp_uri_parse_with_flags` with `EVHTTP_URI_NONCONFORMANT`, as for every request it
/// accepts), its path and query read as `HTTPRequest` reads them, decided by ``ViewerRequest``
/// with ``token``, and the reply the listener sends for a refusal. Promised: without the exact
/// token nothing but 403; a page is one of the page's files; a picture's name is one plain
/// file name; an event stream's rate is in range and its session a valid id; a refusal is
/// 400, 403 or 404 with a one-line message; the token comparison agrees with plain equality.
public struct ViewerRequestCheck: Sendable {
  /// The listener's token in the check: 64 hex digits, as the daemon makes them (the
  /// dictionary carries it, so that inputs get past the gate).
  public static let token = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

  public init() {}

  /// Runs `bytes` through the check.
  /// - Returns: a description of the first broken promise, or nil when all held.
  public func problem(with bytes: [UInt8]) -> String? {
    let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    let parts = (line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...])
      .split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].elementsEqual("GET".utf8), !parts[1].contains(0) else {
      return nil
    }
    let target = String(decoding: parts[1], as: UTF8.self)
    guard let uri = evhttp_uri_parse_with_flags(target, UInt32(EVHTTP_URI_NONCONFORMANT)) else {
      return nil
    }
    defer { evhttp_uri_free(uri) }
    let rawPath = evhttp_uri_get_path(uri).map { String(cString: $0) } ?? ""
    let path = rawPath.isEmpty ? "/" : rawPath
    let query = evhttp_uri_get_query(uri).map { String(cString: $0) }
    let decision = ViewerRequest(
      path: path, query: query, token: Array(Self.token.utf8), pageFiles: ViewerPage.fileNames,
      defaultFps: 60)
    if let problem = tokenProblem(query: query, decision: decision) { return problem }
    switch decision {
    case .page(let name):
      guard ViewerPage.fileNames.contains(name) else { return "\(path) serves \(name)" }
    case .image(let name):
      guard ViewerRequest.isServableImageName(name), !name.contains("/"), !name.hasPrefix(".")
      else { return "\(path) serves the picture \(name.debugDescription)" }
    case .clock:
      guard path == "/clock" else { return "\(path) serves the clock" }
    case .display(let stream, let display):
      guard path == "/display", ViewerRequest.problem(withStreamName: stream) == nil,
        display.period.isFinite, display.vblank.isFinite
      else { return "\(path) retimes \(stream.debugDescription) by \(display)" }
    case .presented(let stream, let session, let seq, let time):
      guard path == "/presented", ViewerRequest.problem(withStreamName: stream) == nil,
        SessionID.problem(with: session) == nil, seq >= 0, time.isFinite
      else { return "\(path) reports \(session.debugDescription) seq \(seq) at \(time)" }
    case .events(let session, let fps, _, _, let display, let stream):
      if let display, !display.period.isFinite || !display.vblank.isFinite {
        return "\(path) paces by a display of non-finite timing"
      }
      if let stream, let reason = ViewerRequest.problem(withStreamName: stream) {
        return "\(path) names the stream \(stream.debugDescription): \(reason)"
      }
      guard ServerConfig.fpsRange.contains(fps) else { return "\(path) streams at \(fps) fps" }
      if let session, let reason = SessionID.problem(with: session) {
        return "\(path) streams session \(session.debugDescription): \(reason)"
      }
    case .forbidden, .notFound, .badRequest:
      guard let refusal = decision.refusal, [400, 403, 404].contains(refusal.status),
        !refusal.message.isEmpty,
        !refusal.message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }),
        !refusal.reason.unicodeScalars.contains(where: { $0.value < 0x20 })
      else { return "\(path): the refusal \(String(describing: decision.refusal)) is malformed" }
    }
    return nil
  }

  /// Whatever the path, a query that does not spell the token (plainly or percent-encoded) is
  /// refused, and the constant-time comparison agrees with plain equality.
  private func tokenProblem(query: String?, decision: ViewerRequest) -> String? {
    let query = query ?? ""
    for field in query.split(separator: "&") {
      let value = Array(field.utf8)
      if ViewerRequest.tokensMatch(value, Array(Self.token.utf8))
        != (value == Array(Self.token.utf8))
      {
        return "the token comparison disagrees with equality on \(field.debugDescription)"
      }
    }
    if !query.contains(Self.token), !query.contains("%"), decision != .forbidden {
      return "a request without the token is answered \(decision)"
    }
    return nil
  }
}
