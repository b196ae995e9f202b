import Foundation
import Glibc

/// A viewer that comes and goes: opens the daemon's HTTP event stream (`/events`, docs/viewer.md)
/// of every session at 30 or 60 fps, reads it for a while (or, one time in four, stops
/// reading), and leaves; now and then asks for a page file or a path that does not exist
/// instead. Every request must be answered with its status line.
struct EventStreamVisitor {
  let host: String
  let port: UInt16
  let token: String
  let deadline: Double
  var random: SoakRandom
  var report = WorkerReport(role: "viewer")

  /// - Parameter viewerURL: The daemon's viewer URL with its token (`hello`'s `viewer`).
  init?(viewerURL: String, deadline: Double, seed: UInt64) {
    guard let url = URLComponents(string: viewerURL), let host = url.host,
      let port = url.port.flatMap({ UInt16(exactly: $0) }),
      let token = url.queryItems?.first(where: { $0.name == "token" })?.value
    else { return nil }
    self.host = host
    self.port = port
    self.token = token
    self.deadline = deadline
    random = SoakRandom(seed: seed)
    report.seed = seed
  }

  mutating func run() -> WorkerReport {
    while Monotonic.now < deadline {
      let roll = Int.random(in: 0..<8, using: &random)
      switch roll {
      case 0: visit("/viewer.js?token=\(token)", expecting: "200", readFor: 1)
      case 1: visit("/nowhere?token=\(token)", expecting: "404", readFor: 1)
      default:
        let fps = Bool.random(using: &random) ? 60 : 30
        visit(
          "/events?token=\(token)&session=*&fps=\(fps)", expecting: "200",
          readFor: Double.random(in: 0.5...4, using: &random),
          stall: Int.random(in: 0..<4, using: &random) == 0)
      }
    }
    return report
  }

  /// One request on a new connection: the status line must arrive within 5 s and carry
  /// `status`; then the reply is read for `seconds` (or, when `stall`, left unread) and the
  /// connection closed.
  private mutating func visit(
    _ target: String, expecting status: String, readFor seconds: Double, stall: Bool = false
  ) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      report.note("socket: \(String(cString: strerror(errno)))")
      return
    }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, host, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      report.note("connect to \(host):\(port): \(String(cString: strerror(errno)))")
      return
    }
    report.connections += 1
    report.requests += 1
    let request = Array("GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\n\r\n".utf8)
    guard
      request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
        == request.count
    else {
      report.unanswered += 1
      report.note("GET \(target.prefix(8))…: the request could not be sent")
      return
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    let answerBy = Monotonic.now + 5
    while !received.contains(UInt8(ascii: "\n")) {
      guard case let left = answerBy - Monotonic.now, left > 0, wait(descriptor, left),
        case let count = recv(descriptor, &buffer, buffer.count, 0), count > 0
      else {
        report.unanswered += 1
        report.note("GET \(target.split(separator: "?")[0]): no status line within 5 s")
        return
      }
      received += buffer[..<count]
    }
    let statusLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    guard statusLine.hasPrefix("HTTP/1.1 \(status)") else {
      report.refused += 1
      report.note("GET \(target.split(separator: "?")[0]) answered \(statusLine), not \(status)")
      return
    }
    guard target.hasPrefix("/events") else { return }
    report.eventStreams += 1
    if stall {
      Monotonic.sleep(min(seconds, deadline - Monotonic.now))
      return
    }
    let leaveAt = min(Monotonic.now + seconds, deadline)
    var events = received.split(separator: UInt8(ascii: "\n")).count {
      $0.starts(with: Array("data:".utf8))
    }
    while case let left = leaveAt - Monotonic.now, left > 0, wait(descriptor, left) {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      events += buffer[..<count].split(separator: UInt8(ascii: "\n")).count {
        $0.starts(with: Array("data:".utf8))
      }
    }
    report.streamEvents += events
  }

  /// Waits up to `seconds` for `descriptor` to be readable.
  private func wait(_ descriptor: Int32, _ seconds: Double) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(max(1, (seconds * 1000).rounded(.up)))) > 0
  }
}
