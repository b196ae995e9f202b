/// Cuts a byte stream into `\n`-terminated lines, with a bound on their length and a clock on
/// the unfinished one: the input stage of a line transport, without sockets or timers.
///
/// Bytes go in with ``append(_:at:)``; ``nextEvent()`` hands out what they make, one event at
/// a time, so that the transport can stop delivering as soon as its connection ends. A line
/// longer than ``maximumLineLength`` is never kept whole: it is reported once as
/// ``Event/overlongLine`` and its bytes are discarded up to and including its `\n`, however
/// many appends it spans. Lines come without their `\n`; a `\r` before it is kept.
///
/// The framer also knows since when an unfinished line has waited for its `\n`
/// (``partialLineSince``, the arrival time of its first byte, so a peer that trickles one
/// byte at a time does not move it) and answers whether it waited too long
/// (``checkPartialLine(now:timeout:)``); the transport owns the timer that asks.
public struct LineFramer {
  /// What the buffered bytes make.
  public enum Event: Equatable, Sendable {
    /// A complete line, without its `\n`.
    case line([UInt8])
    /// A line longer than ``LineFramer/maximumLineLength``; its bytes are discarded.
    case overlongLine
  }

  /// What ``checkPartialLine(now:timeout:)`` decides about the unfinished line.
  public enum PartialLineCheck: Equatable, Sendable {
    /// No line is unfinished: nothing to wait for.
    case none
    /// The unfinished line may wait until this monotonic time; ask again then.
    case waitUntil(Double)
    /// The unfinished line has waited `timeout` seconds or more.
    case timedOut
  }

  /// The longest line accepted, in bytes, not counting the `\n`. At least 1.
  public var maximumLineLength: Int {
    didSet { maximumLineLength = max(maximumLineLength, 1) }
  }

  /// When the first byte of the unfinished line arrived (the time given to
  /// ``append(_:at:)``), once ``nextEvent()`` has returned nil; nil when no line is
  /// unfinished.
  public private(set) var partialLineSince: Double?

  private var bytes: [UInt8] = []
  /// Where the unconsumed bytes begin.
  private var start = 0
  /// Where the search for the next `\n` resumes, so that each byte is scanned once.
  private var scanned = 0
  /// True while the bytes of an overlong line are being discarded up to its `\n`.
  private var isDiscarding = false
  /// The time of the latest append.
  private var lastArrival = 0.0

  /// A framer for lines of at most `maximumLineLength` bytes (at least 1); nil for no bound.
  public init(maximumLineLength: Int? = nil) {
    self.maximumLineLength = max(maximumLineLength ?? Int.max, 1)
  }

  /// Bytes buffered and not yet handed out: the unfinished line, or lines not yet taken.
  public var bufferedBytes: Int { bytes.count - start }

  /// Appends bytes that arrived at monotonic time `now`.
  public mutating func append(_ chunk: UnsafeRawBufferPointer, at now: Double = 0) {
    guard !chunk.isEmpty else { return }
    if start > 0, start * 2 >= bytes.count {
      bytes.removeFirst(start)
      scanned -= start
      start = 0
    }
    bytes.append(contentsOf: chunk)
    lastArrival = now
  }

  /// Appends bytes that arrived at monotonic time `now`.
  public mutating func append(_ chunk: [UInt8], at now: Double = 0) {
    chunk.withUnsafeBytes { append($0, at: now) }
  }

  /// The next line or overlong line the buffered bytes make, or nil when they make no more
  /// (what is left is an unfinished line, which then starts ``partialLineSince``).
  public mutating func nextEvent() -> Event? {
    while true {
      guard let newline = findNewline() else {
        if isDiscarding {
          dropUnconsumed()
          return nil
        }
        if bufferedBytes > maximumLineLength {
          dropUnconsumed()
          isDiscarding = true
          partialLineSince = nil
          return .overlongLine
        }
        if bufferedBytes > 0 {
          if partialLineSince == nil { partialLineSince = lastArrival }
        } else {
          partialLineSince = nil
        }
        return nil
      }
      let lineStart = start
      start = newline + 1
      scanned = start
      partialLineSince = nil
      if isDiscarding {
        isDiscarding = false
        continue
      }
      if newline - lineStart > maximumLineLength { return .overlongLine }
      return .line(Array(bytes[lineStart..<newline]))
    }
  }

  /// Takes the buffered bytes as they are, unframed (a reader that goes on with raw reads),
  /// leaving the framer empty.
  public mutating func takeBuffered() -> [UInt8] {
    let rest = Array(bytes[start...])
    dropUnconsumed()
    partialLineSince = nil
    return rest
  }

  /// Whether the unfinished line has waited `timeout` seconds or more at monotonic time `now`.
  public func checkPartialLine(now: Double, timeout: Double) -> PartialLineCheck {
    guard let since = partialLineSince else { return .none }
    return now - since >= timeout ? .timedOut : .waitUntil(since + timeout)
  }

  private mutating func findNewline() -> Int? {
    var index = max(scanned, start)
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") { return index }
      index += 1
    }
    scanned = index
    return nil
  }

  private mutating func dropUnconsumed() {
    bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
    start = 0
    scanned = 0
  }
}
