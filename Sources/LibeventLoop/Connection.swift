import CLibevent
import Glibc
import LineTransport
import UnixIO

/// One client of a stream socket (a libevent `bufferevent`), framed as `\n`-terminated lines:
/// the socket and its lifecycle around the two pure stages of a line transport, a
/// ``LineFramer`` for input and an ``OutputBatch`` for output.
///
/// Input arrives through ``onLine``, one call per complete line. A line longer than
/// ``maximumLineLength`` is never buffered whole: ``onLineTooLong`` is called and input is
/// discarded up to and including the next `\n`. Output is queued with ``write(_:)-(UnsafeRawBufferPointer)``
/// and sent as the socket accepts it; ``pendingOutputBytes`` tells how much is still queued
/// and ``onDrained`` says when it has fallen to ``writeLowWatermark``, so a slow reader can
/// be throttled and resumed.
///
/// ## Writes
/// When output leaves is the ``OutputBatch``'s rule: what is written during one loop
/// iteration is collected and leaves in one `write`, made straight to the socket once the
/// iteration's callbacks have run (``EventLoop`` flushes every connection written to);
/// ``holdOutput()`` keeps it past the end of iterations until ``flush()`` (it then leaves at
/// the end of the iteration) or ``flushNow()`` (it leaves at once): a frame clock renders
/// ahead of a deadline and releases its frames when the deadline comes. Whether a line from
/// the peer ends a hold is the application's decision, not the connection's. Only what the
/// kernel does not take goes to libevent's output buffer, which arms write interest until it
/// is sent: a reader that keeps up costs one system call per iteration and no `epoll_ctl`.
///
/// ## Lifecycle
/// A connection is *open* from creation until it ends, which happens exactly once, by
/// ``close()``, ``closeAfterFlush()``, end of stream from the peer, or a socket error. At that
/// moment ``onClose`` is called (once, with the reason), every callback is released (so
/// closures that capture the connection leave no cycle), no more lines are delivered and
/// writes are refused. After ``closeAfterFlush()`` or the peer's end of stream, output
/// already queued is still sent (for at most ``flushTimeout`` seconds without progress);
/// then the socket is closed. An open connection keeps itself alive; once its socket is
/// closed it is freed with its last reference. Closing from inside any of its own callbacks
/// is safe.
public final class Connection: EndOfTurnFlushing {
  /// Why a connection ended.
  public enum CloseReason: Equatable, Sendable {
    /// ``close()`` or ``closeAfterFlush()`` was called.
    case local
    /// The peer closed its end (end of stream).
    case peerClosed
    /// The socket failed, for example with `ECONNRESET` or `EPIPE`.
    case failed(SystemError)
  }

  /// The default ``maximumLineLength``: 64 KiB, as Redis caps inline requests.
  public static let defaultMaximumLineLength = 64 * 1024
  /// The default ``flushTimeout``: 10 seconds.
  public static let defaultFlushTimeout = 10.0
  /// The most bytes one write to the socket carries: 1 MiB, so everything queued during one
  /// loop iteration (a frame clock's tick) leaves in one `writev` as far as the socket takes
  /// it. libevent's own default is 16 KiB, which splits a tick's frames into many writes.
  public static let maximumSingleWrite = 1 << 20

  /// A number unique on this connection's loop: 1, 2, 3, … in order of creation.
  public let id: UInt64
  /// The loop the connection's callbacks run on.
  public let loop: EventLoop
  /// The peer's pid, uid and gid (`SO_PEERCRED`); nil when the socket is not AF_UNIX.
  public let peerCredentials: PeerCredentials?

  /// Called with each complete line, without its `\n` (a `\r` before it is kept).
  public var onLine: ((Connection, [UInt8]) -> Void)?
  /// Called when a line exceeds ``maximumLineLength``; that line's bytes are discarded.
  public var onLineTooLong: ((Connection) -> Void)?
  /// Called once an unfinished line has waited ``partialLineTimeout`` seconds for its `\n`.
  /// The connection stays open; the handler decides (typically: reply, then close).
  public var onPartialLineTimeout: ((Connection) -> Void)?
  /// Called when queued output has fallen to ``writeLowWatermark`` bytes or fewer after
  /// the socket accepted some of it.
  public var onDrained: ((Connection) -> Void)?
  /// Called exactly once, when the connection ends, with the reason.
  public var onClose: ((Connection, CloseReason) -> Void)?
  /// Called once, when the socket is finally closed: at once for ``close()`` or a failure,
  /// after the queued output is sent (or the flush gave up) for ``closeAfterFlush()`` and
  /// end of stream. Runs after ``onClose``.
  public var onSocketClosed: ((Connection) -> Void)?

  /// The longest line accepted, in bytes, not counting the `\n`. At least 1.
  public var maximumLineLength: Int {
    get { framer.maximumLineLength }
    set {
      framer.maximumLineLength = newValue
      applyWatermarks()
    }
  }

  /// ``onDrained`` fires once queued output is at most this many bytes. Default 0: fully
  /// flushed.
  public var writeLowWatermark: Int = 0 {
    didSet {
      writeLowWatermark = max(writeLowWatermark, 0)
      applyWatermarks()
    }
  }

  /// How long, in seconds, an unfinished line may wait for its `\n` before
  /// ``onPartialLineTimeout`` is called, counted from the line's first byte (so a peer that
  /// trickles one byte at a time does not extend it); nil (the default) for no limit.
  public var partialLineTimeout: Double? {
    didSet { schedulePartialLineCheck() }
  }

  /// The monotonic time the first byte of the unfinished line arrived; nil when the input
  /// holds no unfinished line.
  public var partialLineSince: Double? { framer.partialLineSince }

  /// How long, in seconds, queued output may make no progress after the connection ended
  /// before the socket is closed anyway.
  public var flushTimeout: Double = Connection.defaultFlushTimeout

  private enum State {
    case open
    case flushing
    case closed
  }

  private var state = State.open
  private var bufferEvent: OpaquePointer?
  /// The input not yet handed out as lines.
  private var framer = LineFramer(maximumLineLength: Connection.defaultMaximumLineLength)
  /// Output not yet offered to the socket, and the rule for when it is.
  private var output = OutputBatch()
  /// True while the connection is on the loop's list for the end-of-iteration flush.
  private var isFlushScheduled = false
  /// Batches written straight to the socket so far: one for each loop iteration in which
  /// output was written, while the reader keeps up (for tests and statistics).
  public private(set) var directWrites = 0
  private var isFlushing = false
  /// True once queued output went above ``writeLowWatermark``: ``onDrained`` is then due
  /// when it falls back to it.
  private var isDrainDue = false
  private var registration: Unmanaged<Connection>?
  private var partialLineTimer: LoopTimer?

  /// Takes ownership of a connected stream socket and starts reading from it.
  ///
  /// The descriptor is made non-blocking; it is closed when the connection's socket is
  /// closed, including when this initializer throws.
  ///
  /// - Parameters:
  ///   - loop: The loop to run on.
  ///   - descriptor: A connected stream socket.
  /// - Throws: ``SystemError`` when libevent cannot wrap the socket.
  public init(loop: EventLoop, adopting descriptor: Int32) throws(SystemError) {
    self.loop = loop
    self.id = loop.makeConnectionID()
    self.peerCredentials = try? PeerCredentials(ofSocket: descriptor)
    _ = evutil_make_socket_nonblocking(descriptor)
    guard
      let bufferEvent = bufferevent_socket_new(
        loop.base, descriptor, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
    else {
      Glibc.close(descriptor)
      throw SystemError(errno: ENOMEM, function: "bufferevent_socket_new")
    }
    self.bufferEvent = bufferEvent
    bufferevent_setcb(
      bufferEvent,
      { _, context in Connection.from(context)?.readLines() },
      { _, context in Connection.from(context)?.outputDrained() },
      { _, events, context in Connection.from(context)?.handleEvents(events) },
      Unmanaged.passUnretained(self).toOpaque())
    applyWatermarks()
    _ = bufferevent_set_max_single_write(bufferEvent, Self.maximumSingleWrite)
    if bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE)) != 0 {
      bufferevent_free(bufferEvent)
      self.bufferEvent = nil
      state = .closed
      throw SystemError(errno: Glibc.errno, function: "bufferevent_enable")
    }
    registration = Unmanaged.passRetained(self)
  }

  /// True until the connection ends (see the lifecycle above).
  public var isOpen: Bool { state == .open }

  /// Bytes queued for the peer and not yet accepted by the socket; 0 once the socket is
  /// closed.
  public var pendingOutputBytes: Int {
    guard let bufferEvent else { return 0 }
    return output.count + evbuffer_get_length(bufferevent_get_output(bufferEvent))
  }

  /// True from ``holdOutput()`` until ``flush()`` or ``flushNow()``.
  public var isHoldingOutput: Bool { output.isHolding }

  /// Queues `bytes` for the peer (one copy, into the output batch); the batch is written once
  /// this loop iteration's callbacks have run (see "Writes" above).
  ///
  /// - Parameter bytes: The bytes to send.
  /// - Returns: False when the connection has ended (nothing is queued).
  @discardableResult
  public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard state == .open, bufferEvent != nil else { return false }
    if output.write(bytes) { scheduleFlush() }
    if !isDrainDue, pendingOutputBytes > writeLowWatermark { isDrainDue = true }
    return true
  }

  /// Writes what is queued now (held output included, and the hold ends), instead of once
  /// the iteration's callbacks have run: a reply or frame that must not wait behind the rest
  /// of the iteration's work (a frame clock tick rendering many sessions) leaves at once, and
  /// so do frames held for their deadline when it comes. Writes queued afterwards still leave
  /// together at the end of the iteration, and ``onDrained`` is reported there, never from
  /// inside this call.
  public func flushNow() {
    guard state == .open, output.flushNow(), !isFlushing else { return }
    scheduleFlush()
    writeBatch()
  }

  /// Ends a hold: what is queued leaves with the rest of this iteration's output, once its
  /// callbacks have run. Without a hold it changes nothing.
  public func flush() {
    guard state == .open, output.flush() else { return }
    scheduleFlush()
  }

  /// Keeps what is queued, and what is queued after, from being written at the end of loop
  /// iterations until ``flush()`` or ``flushNow()``. Closing with ``closeAfterFlush()`` still
  /// sends it.
  public func holdOutput() {
    guard state == .open else { return }
    output.hold()
  }

  /// Puts the connection on the loop's list for the end-of-iteration flush, once.
  private func scheduleFlush() {
    guard !isFlushScheduled else { return }
    isFlushScheduled = true
    loop.scheduleFlush(self)
  }

  /// The end of the loop iteration: offers the batch to the socket unless a hold keeps it,
  /// written straight with `write` when nothing is waiting in libevent's output buffer, and
  /// whatever the kernel did not take moves there (arming write interest). Reports
  /// ``onDrained`` when a direct write (this one, or a ``flushNow()`` earlier in the
  /// iteration) brought the queued output down to the watermark; what that callback writes
  /// goes to libevent's output buffer, so one connection gets one direct write per flush and
  /// the loop polls in between.
  func endOfTurn() {
    isFlushScheduled = false
    let leaves = output.endOfTurn()
    guard !output.isHolding else { return }
    guard leaves ? writeBatch() : isFullySent, isDrainDue, state == .open else { return }
    isDrainDue = false
    isFlushing = true
    isFlushScheduled = true
    onDrained?(self)
    isFlushing = false
    isFlushScheduled = false
    moveBatchToOutput()
  }

  /// True when nothing is queued anywhere: not in the batch, not in libevent's output buffer.
  private var isFullySent: Bool { bufferEvent != nil && pendingOutputBytes == 0 }

  /// Writes the batch straight to the socket when libevent's output buffer is empty, else
  /// appends it there. Returns true when nothing is left queued anywhere (the batch went to
  /// the kernel whole, or there was nothing to write and nothing waiting).
  @discardableResult
  private func writeBatch() -> Bool {
    guard let bufferEvent else { return false }
    let slowPath = bufferevent_get_output(bufferEvent)
    guard output.count > 0 else { return evbuffer_get_length(slowPath) == 0 }
    guard evbuffer_get_length(slowPath) == 0, !isFlushing else {
      moveBatchToOutput()
      return false
    }
    let descriptor = bufferevent_getfd(bufferEvent)
    // One write of the whole batch; what is left then means the kernel's buffer is full.
    directWrites += 1
    let written = output.queued.withUnsafeBytes { bytes in
      var result: Int
      repeat {
        result = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
      } while result < 0 && errno == EINTR
      return result
    }
    output.sent(written)
    guard output.count == 0 else {
      // The rest (or everything, on EAGAIN or an error libevent will then report) waits for
      // the socket to become writable.
      moveBatchToOutput()
      return false
    }
    return true
  }

  /// Moves the batch into libevent's output buffer (the slow path, or before flushing at
  /// close).
  private func moveBatchToOutput() {
    guard let bufferEvent, output.count > 0 else { return }
    let bytes = output.takeAll()
    bytes.withUnsafeBytes {
      _ = evbuffer_add(bufferevent_get_output(bufferEvent), $0.baseAddress, $0.count)
    }
  }

  /// Queues `bytes` for the peer; see ``write(_:)-(UnsafeRawBufferPointer)``.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Queues the UTF-8 bytes of `text` for the peer; see ``write(_:)-(UnsafeRawBufferPointer)``.
  @discardableResult
  public func write(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  /// Ends the connection now: ``onClose`` runs with ``CloseReason/local``, queued output is
  /// dropped and the socket is closed. Does nothing once ended.
  public func close() {
    guard state != .closed else { return }
    if state == .open { end(.local) }
    releaseSocket()
  }

  /// Ends the connection but sends the output already queued first: ``onClose`` runs now
  /// with ``CloseReason/local``; the socket closes once the output is flushed, fails, or
  /// makes no progress for ``flushTimeout`` seconds. Does nothing once ended.
  public func closeAfterFlush() {
    guard state == .open else { return }
    end(.local)
    flushThenRelease()
  }

  // MARK: - Callbacks from libevent

  private static func from(_ context: UnsafeMutableRawPointer?) -> Connection? {
    guard let context else { return nil }
    return Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
  }

  /// Moves what libevent read into the framer and delivers the lines it makes, until they
  /// run out or the connection ends.
  private func readLines() {
    guard let bufferEvent else { return }
    let input = bufferevent_get_input(bufferEvent)
    let available = evbuffer_get_length(input)
    if available > 0, let bytes = evbuffer_pullup(input, -1) {
      framer.append(UnsafeRawBufferPointer(start: bytes, count: available), at: loop.now)
      _ = evbuffer_drain(input, available)
    }
    while state == .open, let event = framer.nextEvent() {
      switch event {
      case .line(let line): onLine?(self, line)
      case .overlongLine: onLineTooLong?(self)
      }
    }
    schedulePartialLineCheck()
  }

  /// Sets the timer for the unfinished line's deadline, or cancels it when there is none.
  ///
  /// A deadline already past (bytes read in the iteration that also made the timer due) fires
  /// on the loop's next iteration: the verdict is the timer's alone, so reading more of the line
  /// can never cancel it.
  private func schedulePartialLineCheck() {
    guard state == .open, let timeout = partialLineTimeout, let since = framer.partialLineSince
    else {
      partialLineTimer?.cancel()
      return
    }
    if partialLineTimer == nil {
      partialLineTimer = try? LoopTimer(loop: loop) { [weak self] in self?.checkPartialLine() }
    }
    partialLineTimer?.schedule(at: since + timeout)
  }

  private func checkPartialLine() {
    guard state == .open, let timeout = partialLineTimeout else { return }
    switch framer.checkPartialLine(now: loop.now, timeout: timeout) {
    case .timedOut: onPartialLineTimeout?(self)
    case .waitUntil: schedulePartialLineCheck()
    case .none: break
    }
  }

  private func outputDrained() {
    switch state {
    case .open:
      isDrainDue = false
      onDrained?(self)
    case .flushing: if pendingOutputBytes == 0 { releaseSocket() }
    case .closed: break
    }
  }

  private func handleEvents(_ events: Int16) {
    let events = Int32(events)
    switch state {
    case .open:
      if events & Int32(BEV_EVENT_ERROR) != 0 {
        let code = clibevent_socket_error()
        end(.failed(SystemError(errno: code, function: "bufferevent")))
        releaseSocket()
      } else if events & Int32(BEV_EVENT_EOF) != 0 {
        end(.peerClosed)
        flushThenRelease()
      }
    case .flushing:
      // End of stream, error or write timeout while flushing: give up on the rest.
      releaseSocket()
    case .closed:
      break
    }
  }

  // MARK: - Ending

  /// Leaves the open state: calls ``onClose`` once and drops every callback.
  private func end(_ reason: CloseReason) {
    state = .flushing
    let handler = onClose
    onLine = nil
    onLineTooLong = nil
    onPartialLineTimeout = nil
    partialLineTimer?.cancel()
    partialLineTimer = nil
    onDrained = nil
    onClose = nil
    handler?(self, reason)
  }

  private func flushThenRelease() {
    guard state == .flushing, let bufferEvent else { return }
    moveBatchToOutput()
    _ = bufferevent_disable(bufferEvent, Int16(EV_READ))
    if pendingOutputBytes == 0 {
      releaseSocket()
      return
    }
    bufferevent_setwatermark(bufferEvent, Int16(EV_WRITE), 0, 0)
    var timeout = MonotonicClock.timeval(forDelay: flushTimeout)
    _ = bufferevent_set_timeouts(bufferEvent, nil, &timeout)
  }

  /// Frees the bufferevent (closing the socket) and drops the self-reference. libevent
  /// defers the actual free while one of its callbacks is running.
  private func releaseSocket() {
    state = .closed
    if let bufferEvent {
      bufferevent_setcb(bufferEvent, nil, nil, nil, nil)
      bufferevent_free(bufferEvent)
      self.bufferEvent = nil
    }
    output = OutputBatch()
    let socketClosed = onSocketClosed
    onSocketClosed = nil
    socketClosed?(self)
    if let registration {
      self.registration = nil
      registration.release()
    }
  }

  private func applyWatermarks() {
    guard let bufferEvent, state == .open else { return }
    // Stop reading once a line plus its newline and one byte more is buffered: enough to
    // know the line is too long, and a bound on memory per connection.
    bufferevent_setwatermark(bufferEvent, Int16(EV_READ), 0, maximumLineLength + 2)
    bufferevent_setwatermark(bufferEvent, Int16(EV_WRITE), writeLowWatermark, 0)
  }
}

@available(*, unavailable) extension Connection: Sendable {}
