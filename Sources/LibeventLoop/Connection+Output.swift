import CLibevent
import Glibc
import LineTransport
import UnixIO

// Output: what is queued for the peer and when it leaves (the ``OutputBatch``'s rule), and
// the low watermark that says when a slow reader has drained.
extension Connection {
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
  func scheduleFlush() {
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
  func writeBatch() -> Bool {
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
  func moveBatchToOutput() {
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

  func outputDrained() {
    switch state {
    case .open:
      isDrainDue = false
      onDrained?(self)
    case .flushing: if pendingOutputBytes == 0 { releaseSocket() }
    case .closed: break
    }
  }
}
