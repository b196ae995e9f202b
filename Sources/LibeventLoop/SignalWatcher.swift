import CLibevent
import Glibc
import UnixIO

/// Delivers Unix signals as callbacks on an ``EventLoop`` (libevent's `evsignal`).
///
/// The handler runs on the loop, outside signal context, so it may do anything. While
/// active, the watcher replaces the signals' previous handlers; ``cancel()`` restores them.
/// libevent delivers signals to one `event_base` per process (the last one to watch a
/// signal), so watch signals on the daemon's main loop only.
///
/// ```swift
/// let signals = try SignalWatcher(loop: loop) { signal in
///   if signal == SIGHUP { reload() } else { loop.stop() }
/// }
/// ```
public final class SignalWatcher {
  /// The loop the handler runs on.
  public let loop: EventLoop
  /// The signals watched.
  public let signals: [Int32]

  private var events: [OpaquePointer] = []
  private let handler: (Int32) -> Void
  private var registration: Unmanaged<SignalWatcher>?

  /// Starts watching `signals`.
  ///
  /// - Parameters:
  ///   - loop: The loop to deliver on.
  ///   - signals: Signal numbers; default `SIGINT`, `SIGTERM` and `SIGHUP`.
  ///   - handler: Runs on the loop with the signal number, once per delivery (signals that
  ///     arrive together may be merged, as the kernel does).
  /// - Throws: ``SystemError`` when libevent cannot create or add a signal event; nothing
  ///   stays installed then.
  public init(
    loop: EventLoop, signals: [Int32] = [SIGINT, SIGTERM, SIGHUP],
    handler: @escaping (Int32) -> Void
  ) throws(SystemError) {
    self.loop = loop
    self.signals = signals
    self.handler = handler
    let context = Unmanaged.passUnretained(self).toOpaque()
    for signalNumber in signals {
      guard
        let event = clibevent_evsignal_new(
          loop.base, signalNumber,
          { signalNumber, _, context in
            guard let context else { return }
            let watcher = Unmanaged<SignalWatcher>.fromOpaque(context).takeUnretainedValue()
            withExtendedLifetime(watcher) { watcher.deliver(signalNumber) }
          }, context)
      else {
        removeEvents()
        throw SystemError(errno: EINVAL, function: "evsignal_new")
      }
      events.append(event)
      if clibevent_evsignal_add(event, nil) != 0 {
        let code = Glibc.errno
        removeEvents()
        throw SystemError(errno: code, function: "evsignal_add")
      }
    }
    registration = Unmanaged.passRetained(self)
  }

  /// True until ``cancel()``.
  public var isActive: Bool { registration != nil }

  /// Stops watching and restores the previous handlers. Safe to call twice and from the
  /// handler.
  public func cancel() {
    guard let registration else { return }
    removeEvents()
    self.registration = nil
    registration.release()
  }

  private func removeEvents() {
    for event in events {
      _ = clibevent_evsignal_del(event)
      event_free(event)
    }
    events = []
  }

  private func deliver(_ signalNumber: Int32) {
    guard registration != nil else { return }
    handler(signalNumber)
  }
}

@available(*, unavailable) extension SignalWatcher: Sendable {}
