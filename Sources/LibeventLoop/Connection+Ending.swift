import CLibevent
import Glibc
import LineTransport
import UnixIO

// Ending: the connection's one end (``Connection/onClose``), the flush after it, and the
// socket's release.
extension Connection {
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

  /// Leaves the open state: calls ``onClose`` once and drops every callback.
  func end(_ reason: CloseReason) {
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

  func flushThenRelease() {
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
  func releaseSocket() {
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
}
