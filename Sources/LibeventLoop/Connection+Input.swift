import CLibevent
import Glibc
import LineTransport
import UnixIO

// Input: libevent's bytes through the ``LineFramer`` into lines, and the deadline of an
// unfinished line.
extension Connection {
  /// Moves what libevent read into the framer and delivers the lines it makes, until they
  /// run out or the connection ends.
  func readLines() {
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
  func schedulePartialLineCheck() {
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

  func checkPartialLine() {
    guard state == .open, let timeout = partialLineTimeout else { return }
    switch framer.checkPartialLine(now: loop.now, timeout: timeout) {
    case .timedOut: onPartialLineTimeout?(self)
    case .waitUntil: schedulePartialLineCheck()
    case .none: break
    }
  }
}
