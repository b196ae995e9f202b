import Glibc
import LibeventLoop
import Testing
import UnixDaemon
import UnixIO

/// A datagram socket standing in for systemd's notification socket.
private final class NotificationReceiver {
  let descriptor: Int32

  /// Binds at `name`: a path, or an abstract name written `@name`.
  init(name: String) throws {
    descriptor = try UnixSocket.bind(
      path: name, type: Int32(SOCK_DGRAM.rawValue), allowAbstract: true)
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
    let receiver = try NotificationReceiver(name: path)
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
    let receiver = try NotificationReceiver(name: "@" + name)
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
