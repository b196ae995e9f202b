import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain HTTP/1.1 client over a TCP socket, for the daemon's viewer listener: one request
/// per connection, the reply read as bytes (chunked bodies decoded), or an event stream read
/// as it arrives.
final class ViewerHTTPClient {
  let descriptor: Int32
  private var received: [UInt8] = []

  /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first
  /// (a reader that stays slow).
  init(port: UInt16, receiveBuffer: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw DaemonHarnessError("socket: errno \(errno)") }
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(descriptor)
      throw DaemonHarnessError("connect to 127.0.0.1:\(port): errno \(code)")
    }
  }

  deinit { close(descriptor) }

  /// Sends `GET target` (or another method) with `Connection: close`.
  func send(_ target: String, method: String = "GET") throws {
    let request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count
    else { throw DaemonHarnessError("write: errno \(errno)") }
  }

  /// One whole reply: reads until the daemon closes the connection.
  static func get(port: UInt16, _ target: String, method: String = "GET") throws -> ViewerHTTPReply
  {
    let client = try ViewerHTTPClient(port: port)
    try client.send(target, method: method)
    while try client.read(timeout: 20) {}
    return try ViewerHTTPReply(client.received)
  }

  /// Reads what arrives within `timeout` seconds.
  ///
  /// - Returns: False when the connection ended.
  @discardableResult
  func read(timeout: Double) throws -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, Int32(timeout * 1000))
    guard ready > 0 else {
      if ready == 0 { throw DaemonHarnessError("no reply within \(timeout) s") }
      throw DaemonHarnessError("poll: errno \(errno)")
    }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = Glibc.read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return false }
    received += buffer[0..<count]
    return true
  }

  /// The `data:` lines of an event stream received so far (the reply's head skipped).
  var events: [String] {
    // Split the bytes: a String would keep "\r\n" (the chunks' framing) as one character.
    let prefix = Array("data: ".utf8)
    return received.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: prefix) }.map {
      String(decoding: $0.dropFirst(prefix.count), as: UTF8.self)
    }
  }

  /// The reply's status line and headers received so far.
  var head: String {
    let text = String(decoding: received, as: UTF8.self)
    return text.components(separatedBy: "\r\n\r\n").first ?? ""
  }

  /// Reads the event stream until an event satisfies `last`, noting when each event arrived
  /// (`CLOCK_MONOTONIC` seconds, taken right after the read that completed it).
  func readTimedEvents(until last: (String) -> Bool) throws -> [(line: String, arrival: Double)] {
    var timed: [(line: String, arrival: Double)] = []
    while !(timed.last.map { last($0.line) } ?? false) {
      guard try read(timeout: 20) else { break }
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      let arrival = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
      timed += events.dropFirst(timed.count).map { ($0, arrival) }
    }
    return timed
  }

  /// Reads the event stream until `done` holds for the events so far (or it ends, or 20 s
  /// pass without anything arriving).
  func readEvents(until done: ([String]) -> Bool) throws -> [String] {
    while !done(events) {
      guard try read(timeout: 20) else { break }
    }
    return events
  }
}

/// A whole HTTP reply.
struct ViewerHTTPReply {
  let status: Int
  let headers: [String: String]
  let body: [UInt8]

  init(_ bytes: [UInt8]) throws {
    let separator = Array("\r\n\r\n".utf8)
    guard
      let end = bytes.indices.first(where: {
        $0 + 4 <= bytes.count && Array(bytes[$0..<$0 + 4]) == separator
      })
    else { throw DaemonHarnessError("no reply head in \(String(decoding: bytes, as: UTF8.self))") }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    self.headers = headers
    var body = Array(bytes[(end + 4)...])
    if headers["transfer-encoding"]?.lowercased() == "chunked" {
      var decoded: [UInt8] = []
      var rest = body[...]
      while let lineEnd = rest.firstIndex(of: 13),
        let size = Int(String(decoding: rest[rest.startIndex..<lineEnd], as: UTF8.self), radix: 16),
        size > 0
      {
        let start = lineEnd + 2
        decoded += rest[start..<min(start + size, rest.endIndex)]
        rest = rest[min(start + size + 2, rest.endIndex)...]
      }
      body = decoded
    }
    self.body = body
  }

  var text: String { String(decoding: body, as: UTF8.self) }
}
