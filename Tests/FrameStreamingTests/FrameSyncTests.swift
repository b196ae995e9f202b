import Testing

@testable import FrameStreaming

/// The one decision between full, delta and key frames (``FrameSync``), alone.
@Suite struct FrameSyncTests {
  @Test func eachTakerGetsTheLineOfItsEncodingAndState() {
    #expect(FrameSync.line(isDelta: false, needsKeyFrame: false) == .full)
    #expect(FrameSync.line(isDelta: false, needsKeyFrame: true) == .full)
    #expect(FrameSync.line(isDelta: true, needsKeyFrame: true) == .key)
    #expect(FrameSync.line(isDelta: true, needsKeyFrame: false) == .delta)
  }

  @Test func aFrameNoOneTakesIsNotRendered() {
    let sync = FrameSync()
    let plan = sync.decide(seq: 0, takers: .init(), keepsEncoderInStep: true)
    #expect(plan.isEmpty)
  }

  @Test func fullTakersAloneGetTheFullLineOnly() {
    let plan = FrameSync().decide(seq: 3, takers: .init(.full), keepsEncoderInStep: false)
    #expect(plan == FrameSync.Plan(writesFull: true, encodesDelta: false))
  }

  @Test func aStreamWithDeltaSubscribersEncodesEveryFrameItRenders() {
    // Its delta subscribers were all coalesced this tick: the encoder still follows, so that
    // their next delta (after a key frame) and everyone else's follow on from this frame.
    let plan = FrameSync().decide(seq: 3, takers: .init(.full), keepsEncoderInStep: true)
    #expect(plan == FrameSync.Plan(writesFull: true, encodesDelta: true))
  }

  @Test func deltaTakersAloneGetNoFullLine() {
    let plan = FrameSync().decide(seq: 3, takers: .init(.delta), keepsEncoderInStep: true)
    #expect(plan == FrameSync.Plan(writesFull: false, encodesDelta: true))
  }

  @Test func aKeyFrameBringsTheEncoderToItsFrameOnce() {
    var sync = FrameSync()
    // A frame sent again as a key frame the encoder has not encoded: encoded, so that the
    // next delta follows on from it.
    #expect(
      sync.decide(seq: 5, takers: .init(.key), keepsEncoderInStep: false)
        == FrameSync.Plan(writesFull: true, encodesDelta: true))
    sync.encoded(seq: 5)
    #expect(sync.encoderSeq == 5)
    // The same frame again (a second joiner in the same instant): the encoder holds it.
    #expect(
      sync.decide(seq: 5, takers: .init(.key), keepsEncoderInStep: false)
        == FrameSync.Plan(writesFull: true, encodesDelta: false))
    // The next frame to a key taker and one in step: both lines.
    #expect(
      sync.decide(seq: 6, takers: .init(.key, .delta), keepsEncoderInStep: false)
        == FrameSync.Plan(writesFull: true, encodesDelta: true))
  }

  @Test func everyMixOfTakersWritesWhatItsLinesNeed() {
    let lines: [FrameSync.Line] = [.full, .delta, .key]
    for mask in 0..<8 {
      var takers = FrameSync.Takers()
      for (bit, line) in lines.enumerated() where mask & (1 << bit) != 0 { takers.add(line) }
      for keeps in [false, true] {
        let plan = FrameSync().decide(seq: 1, takers: takers, keepsEncoderInStep: keeps)
        #expect(plan.writesFull == (takers.full || takers.key))
        if takers.delta || takers.key { #expect(plan.encodesDelta) }
        if takers.isEmpty { #expect(plan.isEmpty) }
      }
    }
  }
}

/// The sync state's check in debug builds (the tests' builds): a delta to a taker that lacks
/// the frame it was written against stops the process.
@Suite struct FrameSyncCheckTests {
  @Test func aDeltaToATakerThatMissedItsKeyFrameStopsADebugBuild() async {
    await #expect(processExitsWith: .failure) {
      var sync = FrameSync()
      sync.encoded(seq: 1)
      sync.encoded(seq: 2)
      // The taker's last frame was 0: it missed frame 1, the delta's base.
      sync.checkLine(.delta, seq: 2, lastReceived: 0)
    }
  }

  @Test func aDeltaToATakerInStepPasses() {
    var sync = FrameSync()
    sync.encoded(seq: 1)
    sync.encoded(seq: 2)
    sync.checkLine(.delta, seq: 2, lastReceived: 1)
    sync.checkLine(.key, seq: 2, lastReceived: nil)
  }
}
