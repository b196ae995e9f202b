import Foundation
import TransitionViewer

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP server on a loopback port that serves the viewer page's built files and, at
/// `/events`, event streams written out in advance: the n-th `/events` request gets the n-th
/// script's lines as Server-Sent Events. It feeds the live page streams the daemon never sends
/// (a delta before its key frame), to test what the page does with them; what the daemon sends
/// is tested against the daemon itself.
///
/// A stream stays open until the page closes it (at most 20 s), except the last script's:
/// after it the server stops listening and closes that stream, so the page's reconnections are
/// refused and its loading ends (headless Chromium then dumps the DOM).
final class ScriptedEventServer: @unchecked Sendable {
  let port: UInt16
  private let listener: Int32
  private let scripts: [[String]]
  private let pageDirectory: String
  private let lock = NSLock()
  private var eventRequests: [String] = []

  /// Listens on 127.0.0.1 (an ephemeral port) and starts accepting on a thread of its own.
  init(scripts: [[String]]) throws {
    self.scripts = scripts
    guard let directory = ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory)
    else { throw DaemonHarnessError("the viewer page is not built") }
    pageDirectory = directory
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw DaemonHarnessError("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound else {
      close(listener)
      throw DaemonHarnessError("bind/listen on 127.0.0.1: errno \(errno)")
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    Thread { [self] in acceptLoop() }.start()
  }

  /// The `/events` requests received so far, each its target (path and query).
  var eventTargets: [String] {
    lock.withLock { eventRequests }
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      Thread { [self] in serve(connection) }.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let target = Self.requestTarget(connection) else { return }
    let path = String(target.prefix { $0 != "?" })
    guard path == "/events" else {
      let name = path == "/" ? "index.html" : String(path.dropFirst())
      if ViewerPage.fileNames.contains(name), let type = ViewerPage.mediaType(of: name),
        let body = FileManager.default.contents(atPath: pageDirectory + "/" + name)
      {
        Self.write(connection, Array(Self.head(200, type, length: body.count).utf8) + Array(body))
      } else {
        Self.write(connection, Array(Self.head(404, "text/plain", length: 0).utf8))
      }
      return
    }
    let index = lock.withLock {
      eventRequests.append(target)
      return eventRequests.count - 1
    }
    let lines = index < scripts.count ? scripts[index] : []
    let events = lines.map { "data: \($0)\n\n" }.joined()
    Self.write(connection, Array((Self.head(200, "text/event-stream") + events).utf8))
    if index >= scripts.count - 1 {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
      return
    }
    // Open until the page closes it; a page that never does (the behaviour under test
    // broken) finds, after 20 s, the stream closed and nothing listening, so that its loading
    // ends and the test fails on what it drew rather than waiting forever.
    var byte: UInt8 = 0
    var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
    while poll(&poller, 1, 20_000) > 0, recv(connection, &byte, 1, 0) > 0 {}
    if poller.revents == 0 {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
  }

  /// The target of the request's first line, after its head was read whole.
  private static func requestTarget(_ connection: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !received.contains(subsequence: Array("\r\n\r\n".utf8)) {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0, received.count < 65536 else { return nil }
      received += buffer[0..<count]
    }
    let line = String(decoding: received.prefix { $0 != 13 }, as: UTF8.self)
    let parts = line.split(separator: " ")
    return parts.count == 3 && parts[0] == "GET" ? String(parts[1]) : nil
  }

  private static func head(_ status: Int, _ type: String, length: Int? = nil) -> String {
    "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Not Found")\r\nContent-Type: \(type)\r\n"
      + "Cache-Control: no-store\r\nConnection: close\r\n"
      + (length.map { "Content-Length: \($0)\r\n" } ?? "") + "\r\n"
  }

  private static func write(_ connection: Int32, _ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { return }
      sent += count
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func contains(subsequence: [UInt8]) -> Bool {
    guard count >= subsequence.count else { return false }
    return (0...(count - subsequence.count)).contains {
      self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
    }
  }
}
