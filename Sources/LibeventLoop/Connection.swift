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

  // The connection's own state, internal only so that its extensions (Connection+Output,
  // +Input, +Ending) reach it; nothing else in the module touches it.

  enum State {
    case open
    case flushing
    case closed
  }

  var state = State.open
  var bufferEvent: OpaquePointer?
  /// The input not yet handed out as lines.
  var framer = LineFramer(maximumLineLength: Connection.defaultMaximumLineLength)
  /// Output not yet offered to the socket, and the rule for when it is.
  var output = OutputBatch()
  /// True while the connection is on the loop's list for the end-of-iteration flush.
  var isFlushScheduled = false
  /// Batches written straight to the socket so far: one for each loop iteration in which
  /// output was written, while the reader keeps up (for tests and statistics).
  public internal(set) var directWrites = 0
  var isFlushing = false
  /// True once queued output went above ``writeLowWatermark``: ``onDrained`` is then due
  /// when it falls back to it.
  var isDrainDue = false
  var registration: Unmanaged<Connection>?
  var partialLineTimer: LoopTimer?

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

  // MARK: - Callbacks from libevent

  static func from(_ context: UnsafeMutableRawPointer?) -> Connection? {
    guard let context else { return nil }
    return Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
  }

  func handleEvents(_ events: Int16) {
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

  func applyWatermarks() {
    guard let bufferEvent, state == .open else { return }
    // Stop reading once a line plus its newline and one byte more is buffered: enough to
    // know the line is too long, and a bound on memory per connection.
    bufferevent_setwatermark(bufferEvent, Int16(EV_READ), 0, maximumLineLength + 2)
    bufferevent_setwatermark(bufferEvent, Int16(EV_WRITE), writeLowWatermark, 0)
  }
}

@available(*, unavailable) extension Connection: Sendable {}
