import CLibevent
import UnixIO

/// Calls back on an ``EventLoop`` when a descriptor the caller owns becomes readable or
/// writable (persistent libevent events on a raw descriptor).
///
/// For protocols that are not lines (``Connection`` is for those): the caller reads and
/// writes the descriptor itself, non-blocking, and turns write interest on only while it has
/// bytes queued. The watcher never closes the descriptor. While any interest is on it keeps
/// itself alive; ``cancel()`` turns both off (safe from its own callbacks).
public final class DescriptorWatcher {
  /// The loop the callbacks run on.
  public let loop: EventLoop
  /// The descriptor watched.
  public let descriptor: Int32

  private var readEvent: OpaquePointer?
  private var writeEvent: OpaquePointer?
  private var readPending = false
  private var writePending = false
  private let onReadable: () -> Void
  private let onWritable: () -> Void
  private var registration: Unmanaged<DescriptorWatcher>?

  /// A watcher with no interest yet.
  ///
  /// - Parameters:
  ///   - loop: The loop to call back on.
  ///   - descriptor: A non-blocking descriptor.
  ///   - onReadable: Runs while read interest is on and the descriptor is readable (or at
  ///     end of file, or in error).
  ///   - onWritable: Runs while write interest is on and the descriptor is writable.
  /// - Throws: ``SystemError`` when libevent cannot allocate the events.
  public init(
    loop: EventLoop, descriptor: Int32, onReadable: @escaping () -> Void,
    onWritable: @escaping () -> Void = {}
  ) throws(SystemError) {
    self.loop = loop
    self.descriptor = descriptor
    self.onReadable = onReadable
    self.onWritable = onWritable
    let context = Unmanaged.passUnretained(self).toOpaque()
    let callback: event_callback_fn = { _, what, context in
      guard let context else { return }
      let watcher = Unmanaged<DescriptorWatcher>.fromOpaque(context).takeUnretainedValue()
      withExtendedLifetime(watcher) {
        if what & Int16(EV_READ) != 0 { watcher.readable() }
        if what & Int16(EV_WRITE) != 0 { watcher.writable() }
      }
    }
    readEvent = event_new(loop.base, descriptor, Int16(EV_READ | EV_PERSIST), callback, context)
    writeEvent = event_new(loop.base, descriptor, Int16(EV_WRITE | EV_PERSIST), callback, context)
    guard readEvent != nil, writeEvent != nil else {
      freeEvents()
      throw SystemError(errno: ENOMEM, function: "event_new")
    }
  }

  deinit {
    freeEvents()
  }

  /// Turns read interest on or off.
  public func watchReadable(_ on: Bool) {
    guard let readEvent, on != readPending else { return }
    readPending = on && event_add(readEvent, nil) == 0
    if !on { _ = event_del(readEvent) }
    updateRegistration()
  }

  /// Turns write interest on or off.
  public func watchWritable(_ on: Bool) {
    guard let writeEvent, on != writePending else { return }
    writePending = on && event_add(writeEvent, nil) == 0
    if !on { _ = event_del(writeEvent) }
    updateRegistration()
  }

  /// Turns both interests off for good.
  public func cancel() {
    watchReadable(false)
    watchWritable(false)
  }

  private func readable() {
    if readPending { onReadable() }
  }

  private func writable() {
    if writePending { onWritable() }
  }

  private func updateRegistration() {
    let active = readPending || writePending
    if active, registration == nil {
      registration = Unmanaged.passRetained(self)
    } else if !active, let registration {
      self.registration = nil
      registration.release()
    }
  }

  private func freeEvents() {
    if let readEvent { event_free(readEvent) }
    if let writeEvent { event_free(writeEvent) }
    readEvent = nil
    writeEvent = nil
  }
}

@available(*, unavailable) extension DescriptorWatcher: Sendable {}
