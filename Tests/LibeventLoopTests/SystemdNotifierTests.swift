import Glibc
import LibeventLoop
import Testing

/// A datagram socket standing in for systemd's notification socket.
private final class NotificationReceiver {
  let descriptor: Int32

  /// Binds at `name`: a path, or an abstract name when it starts with NUL.
  init(name: [UInt8]) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
    let isAbstract = name.first == 0
    let length = 2 + name.count + (isAbstract ? 0 : 1)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(length))
      }
    }
    guard result == 0 else { throw SystemError(errno: errno, function: "bind") }
  }

  deinit { close(descriptor) }

  /// The next datagram (already queued: the notifier sent it before this is called).
  func receive() -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes {
      recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
    }
    return String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
  }
}

@Suite struct SystemdNotifierTests {
  @Test func doesNothingWithoutASocket() throws {
    let notifier = SystemdNotifier(socketPath: nil)
    #expect(!notifier.isEnabled)
    try notifier.notifyReady()
    #expect(!SystemdNotifier(socketPath: "").isEnabled)
  }

  @Test func sendsOneDatagramPerNotification() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("notify")
    let receiver = try NotificationReceiver(name: Array(path.utf8))
    let notifier = SystemdNotifier(socketPath: path)
    #expect(notifier.isEnabled)

    try notifier.notifyReady()
    #expect(receiver.receive() == "READY=1")
    try notifier.notifyStopping()
    #expect(receiver.receive() == "STOPPING=1")
    try notifier.notifyStatus("serving\n3 sessions")
    #expect(receiver.receive() == "STATUS=serving 3 sessions")

    let before = UInt64(EventLoop.monotonicNow() * 1e6)
    try notifier.notifyReloading()
    let after = UInt64((EventLoop.monotonicNow() * 1e6).rounded(.up))
    let lines = receiver.receive().split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first == "RELOADING=1")
    let prefix = "MONOTONIC_USEC="
    let usec = try #require(
      lines.last.flatMap { $0.hasPrefix(prefix) ? UInt64($0.dropFirst(prefix.count)) : nil })
    #expect(before <= usec + 1 && usec <= after)
  }

  @Test func atSignMeansTheAbstractNamespace() throws {
    let name = "evl-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let receiver = try NotificationReceiver(name: [0] + Array(name.utf8))
    try SystemdNotifier(socketPath: "@" + name).notifyReady()
    #expect(receiver.receive() == "READY=1")
  }

  @Test func failsLoudlyWhenNobodyListens() throws {
    let directory = try TemporaryDirectory()
    let error = try #require(throws: SystemError.self) {
      try SystemdNotifier(socketPath: directory.file("absent")).notifyReady()
    }
    #expect(error.function == "sendto")
    #expect(error.errno == ENOENT)
  }
}
