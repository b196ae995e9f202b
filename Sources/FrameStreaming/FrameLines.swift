import TransitionKit

/// The lines of one frame as ``FrameSync/Plan`` made them, lent for the time of a call: the
/// full line, the delta, or both, and the sync state they were made in (for the checks of
/// debug builds, ``FrameSync/checkLine(_:seq:lastReceived:)``).
struct FrameLines {
  var full: UnsafeRawBufferPointer?
  var delta: UnsafeRawBufferPointer?
  var sync: FrameSync

  /// Has `write` write `line` of this frame: the full line, the delta, or the key frame that
  /// `keyWriter` makes of the full line. The plan that made the lines provides each line
  /// its takers get (``FrameSync/decide(seq:takers:keepsEncoderInStep:)``).
  @inline(__always)
  func write(
    _ line: FrameSync.Line, keyWriter: inout KeyFrameWriter,
    _ write: (UnsafeRawBufferPointer) -> Void
  ) {
    switch line {
    case .full: write(full!)
    case .delta: write(delta!)
    case .key: keyWriter.keyFrame(fromFull: full!, write)
    }
  }
}

extension StreamedSession {
  /// Makes the lines `plan` asks of frame `seq` of the session at `progress` and `t`: the
  /// full line rendered (or the frame only evaluated when it has none), the delta encoded by
  /// `encoder` against the frame it encoded before (recorded in `sync`), and lends them to
  /// `body`. Nothing for an empty plan. With a `fullEncoder` (a stream whose layers carry
  /// their projected geometry), the full line is that encoder's, of the evaluated frame,
  /// not the session renderer's.
  @inline(__always)
  func produce(
    _ plan: FrameSync.Plan, seq: Int, progress: Double, t: Double, live: Bool = true,
    fullEncoder: inout FrameEncoder?,
    encoder: inout FrameDeltaEncoder?, sync: inout FrameSync, _ body: (FrameLines) -> Void
  ) {
    let id = self.id
    func lend(full: UnsafeRawBufferPointer, frame: Frame) {
      guard plan.encodesDelta, encoder != nil else {
        return body(FrameLines(full: full, sync: sync))
      }
      encoder!.encode(session: id, seq: seq, frame: frame) { delta in
        sync.encoded(seq: seq)
        body(FrameLines(full: full, delta: delta, sync: sync))
      }
    }
    if plan.writesFull, fullEncoder != nil {
      evaluate(progress: progress, t: t, live: live) { frame in
        fullEncoder!.encode(session: id, seq: seq, frame: frame) { full in
          lend(full: full, frame: frame)
        }
      }
    } else if plan.writesFull {
      render(seq: seq, progress: progress, t: t, live: live) { full, frame in
        lend(full: full, frame: frame)
      }
    } else if plan.encodesDelta, encoder != nil {
      evaluate(progress: progress, t: t, live: live) { frame in
        encoder!.encode(session: id, seq: seq, frame: frame) { delta in
          sync.encoded(seq: seq)
          body(FrameLines(delta: delta, sync: sync))
        }
      }
    }
  }
}
