import Glibc
import UnixIO

/// Tells systemd about the service's state (`sd_notify`) without libsystemd: one datagram
/// to the socket named by `NOTIFY_SOCKET` per call.
///
/// A name starting with `@` is in the abstract namespace. When no socket is configured
/// (not started by systemd with `Type=notify`), every call does nothing.
public struct SystemdNotifier: Sendable {
  /// The notification socket; nil when notifications are off.
  public let socketPath: String?

  /// Creates a notifier for `socketPath` (nil or empty: notifications off).
  public init(socketPath: String?) {
    self.socketPath = (socketPath?.isEmpty ?? true) ? nil : socketPath
  }

  /// A notifier for the socket in the `NOTIFY_SOCKET` environment variable.
  public static func fromEnvironment() -> SystemdNotifier {
    SystemdNotifier(socketPath: getenv("NOTIFY_SOCKET").map { String(cString: $0) })
  }

  /// True when a notification socket is configured.
  public var isEnabled: Bool { socketPath != nil }

  /// Sends `READY=1`: start-up is complete.
  ///
  /// - Throws: ``SystemError`` or ``UnixSocketError`` when the datagram cannot be sent.
  public func notifyReady() throws { try send("READY=1") }

  /// Sends `RELOADING=1` with `MONOTONIC_USEC` (now on `CLOCK_MONOTONIC`): a reload began;
  /// follow with ``notifyReady()`` when it is done.
  ///
  /// - Throws: ``SystemError`` or ``UnixSocketError`` when the datagram cannot be sent.
  public func notifyReloading() throws {
    try send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.microseconds())")
  }

  /// Sends `WATCHDOG=1`: the service is alive (see ``SystemdWatchdog``).
  ///
  /// - Throws: ``SystemError`` or ``UnixSocketError`` when the datagram cannot be sent.
  public func notifyWatchdog() throws { try send("WATCHDOG=1") }

  /// Sends `STOPPING=1`: shutdown began.
  ///
  /// - Throws: ``SystemError`` or ``UnixSocketError`` when the datagram cannot be sent.
  public func notifyStopping() throws { try send("STOPPING=1") }

  /// Sends `STATUS=<text>`, shown by `systemctl status`; newlines in `text` become spaces.
  ///
  /// - Throws: ``SystemError`` or ``UnixSocketError`` when the datagram cannot be sent.
  public func notifyStatus(_ text: String) throws {
    let oneLine = String(text.map { $0.isNewline ? " " : $0 })
    try send("STATUS=\(oneLine)")
  }

  /// Sends `message` (newline-separated `KEY=value` assignments) as one datagram.
  ///
  /// - Parameter message: The assignments, for example `"READY=1\nSTATUS=serving"`.
  /// - Throws: ``UnixSocketError`` for an unusable socket path, ``SystemError`` when
  ///   `socket` or `sendto` fails.
  public func send(_ message: String) throws {
    guard let socketPath else { return }
    let address = try UnixSocketAddress(path: socketPath, allowAbstract: true)
    let descriptor = try retryingInterrupts("socket") {
      socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    defer { Glibc.close(descriptor) }
    let bytes = Array(message.utf8)
    try address.withSocketAddress { socketAddress, length throws(SystemError) in
      let sent = bytes.withUnsafeBytes { buffer in
        Result { () throws(SystemError) in
          try retryingInterrupts("sendto", path: socketPath) {
            sendto(
              descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress,
              length)
          }
        }
      }
      _ = try sent.get()
    }
  }
}
