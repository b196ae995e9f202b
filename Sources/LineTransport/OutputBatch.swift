/// The output stage of a transport, and its one rule for when output leaves: what is written
/// waits in the batch until a flush sends it, as swift-nio's `write` queues and `flush` sends.
///
/// - ``write(_:)`` queues bytes and asks for a flush at the end of the loop turn, so that
///   everything written in one turn (a frame clock tick, a reply and its frame) leaves
///   together, in one system call.
/// - ``hold()`` keeps what is queued, and what is queued after, past the end of turns: the
///   frames a frame clock rendered ahead of their deadline wait for it.
/// - ``flush()`` ends a hold; what is queued leaves at the end of this turn.
/// - ``flushNow()`` ends a hold; what is queued leaves now.
///
/// The transport owns the socket and the end-of-turn callback: it calls ``endOfTurn()`` and
/// ``flushNow()`` for the decision, offers ``queued`` to the socket, and reports how much it
/// took with ``sent(_:)``; what the socket did not take stays queued, in order, ahead of
/// later writes. Whether a transport with nothing faster sends each line as it comes is its
/// own affair; the rule stays here.
public struct OutputBatch {
  /// The bytes queued and not yet taken by the socket, oldest first.
  public private(set) var queued: [UInt8] = []
  /// True from ``hold()`` until ``flush()`` or ``flushNow()``.
  public private(set) var isHolding = false
  /// True when queued output is to leave at the end of this turn: set by a write or a
  /// ``flush()`` while not holding, cleared by ``endOfTurn()`` and ``flushNow()``.
  public private(set) var isFlushDue = false

  /// The largest capacity the batch keeps once it is empty (a burst's buffer is given back).
  public static let retainedCapacity = 1 << 18

  public init() {}

  /// Bytes queued and not yet taken by the socket.
  public var count: Int { queued.count }

  /// Queues `bytes`.
  ///
  /// - Returns: True when this write made a flush due at the end of the turn: the transport
  ///   then arranges its end-of-turn call (once a turn; later writes return false).
  @discardableResult
  public mutating func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !bytes.isEmpty else { return false }
    queued.append(contentsOf: bytes)
    return requestFlush()
  }

  /// Queues `bytes`; see ``write(_:)-(UnsafeRawBufferPointer)``.
  @discardableResult
  public mutating func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Keeps what is queued, and what is queued after, until ``flush()`` or ``flushNow()``.
  public mutating func hold() {
    isHolding = true
    isFlushDue = false
  }

  /// Ends a hold: what is queued leaves at the end of this turn.
  ///
  /// - Returns: True when this made a flush due: the transport arranges its end-of-turn call.
  @discardableResult
  public mutating func flush() -> Bool {
    isHolding = false
    return requestFlush()
  }

  /// Ends a hold; what is queued leaves now.
  ///
  /// - Returns: True when there is something to send: offer ``queued`` to the socket now.
  public mutating func flushNow() -> Bool {
    isHolding = false
    isFlushDue = false
    return !queued.isEmpty
  }

  /// The end of the loop turn.
  ///
  /// - Returns: True when the queued output leaves now (a flush was due and no hold keeps
  ///   it): offer ``queued`` to the socket.
  public mutating func endOfTurn() -> Bool {
    let due = isFlushDue && !isHolding && !queued.isEmpty
    isFlushDue = false
    return due
  }

  /// The socket took the first `count` bytes of ``queued``; the rest stays queued, in order.
  /// Once nothing is queued no flush is due: the next write asks for one again.
  public mutating func sent(_ count: Int) {
    guard count > 0 else { return }
    if count >= queued.count {
      queued.removeAll(keepingCapacity: queued.capacity <= Self.retainedCapacity)
      isFlushDue = false
    } else {
      queued.removeFirst(count)
    }
  }

  /// Takes everything queued (to hand to a slower path, or at close), leaving the batch empty
  /// and no flush due; a hold is left as it is.
  public mutating func takeAll() -> [UInt8] {
    let bytes = queued
    sent(queued.count)
    return bytes
  }

  private mutating func requestFlush() -> Bool {
    guard !isHolding, !isFlushDue, !queued.isEmpty else { return false }
    isFlushDue = true
    return true
  }
}
