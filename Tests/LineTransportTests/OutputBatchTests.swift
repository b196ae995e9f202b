import LineTransport
import Testing

/// The output batch on its own: when output leaves (write, hold, flush, flush now) and what
/// stays after a partial write, without a socket.
@Suite struct OutputBatchTests {
  private func text(_ batch: OutputBatch) -> String {
    String(decoding: batch.queued, as: UTF8.self)
  }

  @Test func writesOfOneTurnAskForOneFlushAndLeaveAtItsEnd() {
    var batch = OutputBatch()
    do {
      let result = batch.endOfTurn()
      #expect(!result)
    }
    do {
      let result = batch.write(Array("one\n".utf8))
      #expect(result)
    }
    do {
      let result = batch.write(Array("two\n".utf8))
      #expect(!result)
    }
    do {
      let result = batch.write([])
      #expect(!result)
    }
    #expect(batch.count == 8)
    do {
      let result = batch.endOfTurn()
      #expect(result)
    }
    #expect(text(batch) == "one\ntwo\n")
    batch.sent(8)
    #expect(batch.count == 0)
    // A new turn asks again.
    do {
      let result = batch.write(Array("three\n".utf8))
      #expect(result)
    }
  }

  @Test func heldOutputStaysPastTurnsUntilFlushNow() {
    var batch = OutputBatch()
    do {
      let result = batch.write(Array("frame 1\n".utf8))
      #expect(result)
    }
    batch.hold()
    do {
      let result = batch.write(Array("frame 2\n".utf8))
      #expect(!result)
    }
    do {
      let result = batch.endOfTurn()
      #expect(!result)
    }
    do {
      let result = batch.write(Array("frame 3\n".utf8))
      #expect(!result)
    }
    do {
      let result = batch.endOfTurn()
      #expect(!result)
    }
    #expect(batch.isHolding)
    do {
      let result = batch.flushNow()
      #expect(result)
    }
    #expect(!batch.isHolding)
    #expect(text(batch) == "frame 1\nframe 2\nframe 3\n")
    batch.sent(batch.count)
    do {
      let result = batch.flushNow()
      #expect(!result)
    }
  }

  @Test func flushEndsAHoldAndLetsTheOutputLeaveAtTheEndOfTheTurn() {
    var batch = OutputBatch()
    batch.write(Array("held\n".utf8))
    batch.hold()
    do {
      let result = batch.endOfTurn()
      #expect(!result)
    }
    do {
      let result = batch.flush()
      #expect(result)
    }
    #expect(!batch.isHolding)
    do {
      let result = batch.write(Array("reply\n".utf8))
      #expect(!result)
    }
    do {
      let result = batch.endOfTurn()
      #expect(result)
    }
    #expect(text(batch) == "held\nreply\n")
    // Without a hold and with nothing queued, flush asks for nothing.
    batch.sent(batch.count)
    do {
      let result = batch.flush()
      #expect(!result)
    }
  }

  @Test func aPartialWriteKeepsTheRestInOrderAheadOfLaterWrites() {
    var batch = OutputBatch()
    batch.write(Array("abcdef\n".utf8))
    do {
      let result = batch.endOfTurn()
      #expect(result)
    }
    batch.sent(3)
    #expect(text(batch) == "def\n")
    batch.sent(0)
    #expect(text(batch) == "def\n")
    do {
      let result = batch.write(Array("ghi\n".utf8))
      #expect(result)
    }
    do {
      let result = batch.endOfTurn()
      #expect(result)
    }
    #expect(text(batch) == "def\nghi\n")
    let taken = batch.takeAll()
    #expect(String(decoding: taken, as: UTF8.self) == "def\nghi\n")
    #expect(batch.count == 0)
  }

  @Test func takingEverythingLeavesNoFlushDueSoTheNextWriteAsksAgain() {
    var batch = OutputBatch()
    batch.write(Array("moved to a slower path\n".utf8))
    #expect(batch.isFlushDue)
    _ = batch.takeAll()
    #expect(!batch.isFlushDue)
    do {
      let asked = batch.write(Array("next\n".utf8))
      #expect(asked)
    }
    do {
      let leaves = batch.endOfTurn()
      #expect(leaves)
    }
  }

  @Test func aHoldSurvivesTakingEverything() {
    var batch = OutputBatch()
    batch.write(Array("x\n".utf8))
    batch.hold()
    _ = batch.takeAll()
    #expect(batch.isHolding)
    do {
      let result = batch.write(Array("y\n".utf8))
      #expect(!result)
    }
    do {
      let result = batch.endOfTurn()
      #expect(!result)
    }
  }
}
