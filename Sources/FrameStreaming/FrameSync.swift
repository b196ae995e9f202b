/// The one decision between full, delta and key frames (docs/protocol.md, "Delta frames"),
/// and the state it rests on: which frame a stream's delta encoder holds. A wall stream's
/// ticks, the frame it sends again (to a joiner, for `resync`, after coalescing) and its final
/// frame, and each frame of a virtual reading, are decided here.
///
/// Each taker of a frame gets one ``Line``: a full subscriber the full line; a delta one that
/// has the frame the encoder holds (in step) the delta; any other delta one the key frame,
/// the full line with `"key":true`, after which it is in step. ``decide(seq:takers:keepsEncoderInStep:)``
/// says what the frame must be made of for them, so that nothing is written that no one
/// takes: the full line only for full or key takers, the delta only for delta takers or to
/// bring the encoder to a key frame (a delta follows on from the frame its subscriber has).
struct FrameSync {
  /// The line one taker gets of a frame.
  enum Line: Equatable {
    case full, delta, key
  }

  /// The lines a frame's takers get.
  struct Takers: Equatable {
    var full = false
    var delta = false
    var key = false

    /// Takers of `lines`.
    init(_ lines: Line...) {
      for line in lines { add(line) }
    }

    /// Adds a taker of `line`.
    @inline(__always)
    mutating func add(_ line: Line) {
      switch line {
      case .full: full = true
      case .delta: delta = true
      case .key: key = true
      }
    }

    var isEmpty: Bool { !full && !delta && !key }
  }

  /// What one frame is made of.
  struct Plan: Equatable {
    /// Whether the full line is written (a full or a key taker).
    var writesFull: Bool
    /// Whether the frame goes through the delta encoder (a delta taker, or the encoder must
    /// hold the frame for the deltas after it).
    var encodesDelta: Bool

    /// Nothing to render: no taker.
    var isEmpty: Bool { !writesFull && !encodesDelta }
  }

  /// The `seq` of the frame the delta encoder encoded last; nil before its first.
  private(set) var encoderSeq: Int?
  #if DEBUG
    /// The `seq` of the frame the encoder held before ``encoderSeq``: the frame the last
    /// delta was written against.
    private var encoderSeqBefore: Int?
  #endif

  /// The line a taker gets: the full line for a full subscriber; for a delta one, a key frame
  /// when it must start afresh (it joined, asked `resync`, missed a frame), else the delta.
  @inline(__always)
  static func line(isDelta: Bool, needsKeyFrame: Bool) -> Line {
    guard isDelta else { return .full }
    return needsKeyFrame ? .key : .delta
  }

  /// What frame `seq` is made of for `takers`.
  ///
  /// - Parameter keepsEncoderInStep: Every frame whose full line is written is also
  ///   delta-encoded (a wall stream while it has delta subscribers), so that each delta
  ///   follows on from the frame before it, whoever took that one.
  @inline(__always)
  func decide(seq: Int, takers: Takers, keepsEncoderInStep: Bool) -> Plan {
    let writesFull = takers.full || takers.key
    let bringsEncoderToKey = takers.key && encoderSeq != seq
    return Plan(
      writesFull: writesFull,
      encodesDelta: takers.delta || bringsEncoderToKey || (writesFull && keepsEncoderInStep))
  }

  /// Records that the delta encoder encoded frame `seq`.
  @inline(__always)
  mutating func encoded(seq: Int) {
    #if DEBUG
      encoderSeqBefore = encoderSeq
    #endif
    encoderSeq = seq
  }

  /// Checks, in debug builds, that `line` of frame `seq` may go to a taker whose last frame
  /// was `lastReceived`: a delta only once the encoder holds frame `seq`, and only to a taker
  /// that has the frame the delta was written against (a delta never follows a missing key
  /// frame). Release builds check nothing.
  @inline(__always)
  func checkLine(_ line: Line, seq: Int, lastReceived: Int?) {
    #if DEBUG
      guard line == .delta else { return }
      precondition(encoderSeq == seq, "a delta of frame \(seq) the encoder has not encoded")
      precondition(
        lastReceived != nil && lastReceived == encoderSeqBefore,
        "a delta against frame \(String(describing: encoderSeqBefore)) to a taker whose last "
          + "frame was \(String(describing: lastReceived))")
    #endif
  }
}
