import Foundation
import TransitionViewer

#if canImport(Glibc)
  import Glibc
#endif

/// A stand-in for the daemon's coming HTTP listener, for the viewer's live-mode test: on
/// 127.0.0.1 (an ephemeral port) it serves the built page's files and one `/events` stream of
/// Server-Sent Events, each `data:` one JSON line, and wants `token` on every request (403
/// without it). Handles one connection at a time, each answered then closed.
final class ViewerEventServer: @unchecked Sendable {
  let port: UInt16
  let token: String
  private let listener: Int32
  private let pageDirectory: String
  private let events: [String]
  private let lock = NSLock()
  private var requests: [String] = []
  private var refused: [String] = []
  private var streamed = false
  private var thread: Thread?

  /// Listens at once; serves from `start()` until `stop()`.
  init(events: [String], token: String, pageDirectory: String) throws {
    self.events = events
    self.token = token
    self.pageDirectory = pageDirectory
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw DaemonHarnessError("socket failed: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw DaemonHarnessError("cannot listen on 127.0.0.1: errno \(errno)")
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
  }

  /// The request lines received so far, and those refused for want of the token.
  var log: (requests: [String], refused: [String]) {
    lock.lock()
    defer { lock.unlock() }
    return (requests, refused)
  }

  func start() {
    let thread = Thread { [self] in
      while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 { return }
        serve(connection)
        close(connection)
      }
    }
    self.thread = thread
    thread.start()
  }

  /// Stops accepting (the accept loop ends when the listening socket is shut down).
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private func serve(_ connection: Int32) {
    var buffer = [UInt8](repeating: 0, count: 8192)
    var received: [UInt8] = []
    while !received.contains(13) || !String(decoding: received, as: UTF8.self).contains("\r\n\r\n")
    {
      let count = read(connection, &buffer, buffer.count)
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    let requestLine = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")[0]
    let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    let components = URLComponents(string: target)
    let path = components?.path ?? "/"
    let query = Dictionary(
      (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    lock.lock()
    requests.append(requestLine)
    lock.unlock()
    if path == "/favicon.ico" {
      return respond(connection, status: "404 Not Found", type: "text/plain", body: Data())
    }
    guard query["token"] == token else {
      lock.lock()
      refused.append(requestLine)
      lock.unlock()
      return respond(
        connection, status: "403 Forbidden", type: "text/plain", body: Data("no token".utf8))
    }
    if path == "/events" {
      lock.lock()
      let first = !streamed
      streamed = true
      lock.unlock()
      // One stream; a reconnection gets 204, which tells EventSource to stop.
      guard first else {
        return respond(connection, status: "204 No Content", type: "text/plain", body: Data())
      }
      let body = events.map { "data: \($0)\n\n" }.joined()
      return respond(connection, status: "200 OK", type: "text/event-stream", body: Data(body.utf8))
    }
    let name = path == "/" ? "index.html" : String(path.dropFirst())
    guard let type = ViewerPage.mediaType(of: name),
      let body = FileManager.default.contents(atPath: pageDirectory + "/" + name)
    else { return respond(connection, status: "404 Not Found", type: "text/plain", body: Data()) }
    respond(connection, status: "200 OK", type: type, body: body)
  }

  private func respond(_ connection: Int32, status: String, type: String, body: Data) {
    let head =
      "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
      + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    let bytes = [UInt8](Data(head.utf8) + body)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
      if count <= 0 { return }
      sent += count
    }
  }
}
