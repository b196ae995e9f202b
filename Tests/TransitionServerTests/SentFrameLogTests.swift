import Testing

@testable import TransitionServer

/// The frames a display-paced subscription was sent lately (``SentFrameLog``), alone: a ring
/// of the last 64, each reported once.
@Suite struct SentFrameLogTests {
  @Test func aReportTakesTheFramesVblankOnce() {
    var log = SentFrameLog()
    log.sent(session: "a", seq: 0, vblank: 1.5)
    log.sent(session: "b", seq: 0, vblank: 1.6)
    log.sent(session: "a", seq: 1, vblank: nil)
    #expect(log.report(session: "b", seq: 0) == .success(1.6))
    #expect(log.report(session: "b", seq: 0) == .failure(.alreadyReported))
    #expect(log.report(session: "a", seq: 1) == .success(nil))
    #expect(log.report(session: "a", seq: 2) == .failure(.neverSent))
    #expect(log.report(session: "c", seq: 0) == .failure(.neverSent))
    #expect(log.report(session: "a", seq: 0) == .success(1.5))
  }

  @Test func theRingKeepsTheLastSixtyFourFrames() {
    var log = SentFrameLog()
    #expect(log.count == 0)
    #expect(log.report(session: "s", seq: 0) == .failure(.neverSent))
    let sent = SentFrameLog.capacity * 3 + 5
    for seq in 0..<sent { log.sent(session: "s", seq: seq, vblank: Double(seq)) }
    #expect(log.count == SentFrameLog.capacity)
    // The oldest kept is `sent - capacity`; the one before it was written over.
    #expect(log.report(session: "s", seq: sent - SentFrameLog.capacity - 1) == .failure(.neverSent))
    for seq in (sent - SentFrameLog.capacity)..<sent {
      #expect(log.report(session: "s", seq: seq) == .success(Double(seq)))
    }
    // Every kept frame is reported now; new frames go on filling the same slots.
    log.sent(session: "s", seq: sent, vblank: 0.25)
    #expect(log.count == SentFrameLog.capacity)
    #expect(log.report(session: "s", seq: sent) == .success(0.25))
    #expect(log.report(session: "s", seq: sent - SentFrameLog.capacity) == .failure(.neverSent))
  }

  @Test func aRepeatedSeqReportsTheNewestFrame() {
    // A frame sent again (resync, or owed after a coalesce) keeps its seq and vblank; a seq
    // of the same session from another stream's numbering is the newest one sent.
    var log = SentFrameLog()
    log.sent(session: "s", seq: 7, vblank: 1.0)
    log.sent(session: "s", seq: 7, vblank: 2.0)
    #expect(log.report(session: "s", seq: 7) == .success(2.0))
    #expect(log.report(session: "s", seq: 7) == .failure(.alreadyReported))
  }

  @Test func framesInStepAreOneRunAndOthersStartTheirOwn() {
    // A stream in step at 120 Hz, then a retime to 60 Hz, a frame of another session in
    // between, and a final frame: every frame reports its own vblank.
    var log = SentFrameLog()
    var expected: [(session: String, seq: Int, vblank: Double?)] = []
    for seq in 0..<10 { expected.append(("s", seq, 100 + Double(seq) / 120)) }
    expected.append(("t", 3, 100.05))
    for seq in 10..<20 { expected.append(("s", seq, 100.2 + Double(seq) / 60)) }
    expected.append(("s", 20, nil))
    for frame in expected { log.sent(session: frame.session, seq: frame.seq, vblank: frame.vblank) }
    #expect(log.count == expected.count)
    for frame in expected.reversed() {
      let reported = log.report(session: frame.session, seq: frame.seq)
      guard case .success(let vblank) = reported else {
        Issue.record("frame \(frame.seq) of \(frame.session): \(reported)")
        continue
      }
      #expect(
        vblank == nil && frame.vblank == nil || abs((vblank ?? 0) - (frame.vblank ?? 1)) < 1e-6)
      #expect(log.report(session: frame.session, seq: frame.seq) == .failure(.alreadyReported))
    }
    // A vblank off its run's line by more than the tolerance starts a run, and keeps its own.
    log.sent(session: "s", seq: 21, vblank: 101)
    log.sent(session: "s", seq: 22, vblank: 101.01)
    log.sent(session: "s", seq: 23, vblank: 101.02 + 1e-4)
    #expect(log.report(session: "s", seq: 23) == .success(101.02 + 1e-4))
  }
}
