import LineTransport
import Testing

/// The output batch on its own: when output leaves (write, hold, flush, flush now) and what
/// stays after a partial write, without a socket.
@Suite struct OutputBatchTests {
  /// One call on the batch.
  private enum Step {
    case write(String)
    case hold
    case flush
    case flushNow
    case endOfTurn
    case sent(Int)
  }

  /// Runs `steps` on `batch`; the answers of the calls that answer (write, flush, flush now,
  /// end of turn), in order.
  private func run(_ steps: [Step], on batch: inout OutputBatch) -> [Bool] {
    var answers: [Bool] = []
    for step in steps {
      switch step {
      case .write(let text): answers.append(batch.write(Array(text.utf8)))
      case .hold: batch.hold()
      case .flush: answers.append(batch.flush())
      case .flushNow: answers.append(batch.flushNow())
      case .endOfTurn: answers.append(batch.endOfTurn())
      case .sent(let count): batch.sent(count)
      }
    }
    return answers
  }

  private func text(_ batch: OutputBatch) -> String {
    String(decoding: batch.queued, as: UTF8.self)
  }

  @Test func writesOfOneTurnAskForOneFlushAndLeaveAtItsEnd() {
    var batch = OutputBatch()
    // Nothing to send; the first write asks for the end-of-turn flush, the others do not.
    #expect(
      run([.endOfTurn, .write("one\n"), .write("two\n"), .write("")], on: &batch)
        == [false, true, false, false])
    #expect(batch.count == 8)
    #expect(run([.endOfTurn], on: &batch) == [true])
    #expect(text(batch) == "one\ntwo\n")
    // Once sent, a new turn asks again.
    #expect(run([.sent(8), .write("three\n")], on: &batch) == [true])
  }

  @Test func heldOutputStaysPastTurnsUntilFlushNow() {
    var batch = OutputBatch()
    let answers = run(
      [
        .write("frame 1\n"), .hold, .write("frame 2\n"), .endOfTurn, .write("frame 3\n"),
        .endOfTurn,
      ],
      on: &batch)
    #expect(answers == [true, false, false, false, false])
    #expect(batch.isHolding)
    #expect(run([.flushNow], on: &batch) == [true])
    #expect(!batch.isHolding)
    #expect(text(batch) == "frame 1\nframe 2\nframe 3\n")
    #expect(run([.sent(batch.count), .flushNow], on: &batch) == [false])
  }

  @Test func flushEndsAHoldAndLetsTheOutputLeaveAtTheEndOfTheTurn() {
    var batch = OutputBatch()
    #expect(run([.write("held\n"), .hold, .endOfTurn, .flush], on: &batch) == [true, false, true])
    #expect(!batch.isHolding)
    #expect(run([.write("reply\n"), .endOfTurn], on: &batch) == [false, true])
    #expect(text(batch) == "held\nreply\n")
    // Without a hold and with nothing queued, flush asks for nothing.
    #expect(run([.sent(batch.count), .flush], on: &batch) == [false])
  }

  @Test func aPartialWriteKeepsTheRestInOrderAheadOfLaterWrites() {
    var batch = OutputBatch()
    #expect(run([.write("abcdef\n"), .endOfTurn, .sent(3)], on: &batch) == [true, true])
    #expect(text(batch) == "def\n")
    #expect(run([.sent(0), .write("ghi\n"), .endOfTurn], on: &batch) == [true, true])
    #expect(text(batch) == "def\nghi\n")
    let taken = batch.takeAll()
    #expect(String(decoding: taken, as: UTF8.self) == "def\nghi\n")
    #expect(batch.count == 0)
  }

  @Test func takingEverythingLeavesNoFlushDueSoTheNextWriteAsksAgain() {
    var batch = OutputBatch()
    #expect(run([.write("moved to a slower path\n")], on: &batch) == [true])
    #expect(batch.isFlushDue)
    _ = batch.takeAll()
    #expect(!batch.isFlushDue)
    #expect(run([.write("next\n"), .endOfTurn], on: &batch) == [true, true])
  }

  @Test func aHoldSurvivesTakingEverything() {
    var batch = OutputBatch()
    #expect(run([.write("x\n"), .hold], on: &batch) == [true])
    _ = batch.takeAll()
    #expect(batch.isHolding)
    #expect(run([.write("y\n"), .endOfTurn], on: &batch) == [false, false])
  }
}
