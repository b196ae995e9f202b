import LineTransport
import Testing

/// The line framer on its own: every cut of the input, the overlong discard and the
/// partial-line clock, without a socket.
@Suite struct LineFramerTests {
  /// Every event the framer hands out after `chunks` arrive one after another.
  private func events(_ chunks: [[UInt8]], maximum: Int? = nil) -> [LineFramer.Event] {
    var framer = LineFramer(maximumLineLength: maximum)
    var events: [LineFramer.Event] = []
    for chunk in chunks {
      framer.append(chunk)
      while let event = framer.nextEvent() { events.append(event) }
    }
    return events
  }

  private func line(_ text: String) -> LineFramer.Event { .line(Array(text.utf8)) }

  /// Expects `expected` from `input` cut in three at every two places.
  private func expectEveryCut(
    of text: String, maximum: Int? = nil, gives expected: [LineFramer.Event],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let input = Array(text.utf8)
    for first in 0...input.count {
      for second in first...input.count {
        let chunks = [
          Array(input[..<first]), Array(input[first..<second]), Array(input[second...]),
        ]
        #expect(
          events(chunks, maximum: maximum) == expected, "cut at \(first) and \(second)",
          sourceLocation: sourceLocation)
      }
    }
  }

  @Test func everyCutOfTheInputGivesTheSameLines() {
    expectEveryCut(
      of: "hello\n\nw\r\nlast one\nunfinished",
      gives: [line("hello"), line(""), line("w\r"), line("last one")])
  }

  @Test func everyCutOfAnOverlongLineIsReportedOnceAndDiscardedToItsNewline() {
    // Limit 4: "abcd" fits, "toolong" does not, "ok" after it is kept.
    expectEveryCut(
      of: "abcd\ntoolong\nok\n", maximum: 4, gives: [line("abcd"), .overlongLine, line("ok")])
  }

  /// Appends `text`, arrived at `now`, and takes every event it makes.
  private func feed(_ framer: inout LineFramer, _ text: String, at now: Double = 0)
    -> [LineFramer.Event]
  {
    framer.append(Array(text.utf8), at: now)
    var events: [LineFramer.Event] = []
    while let event = framer.nextEvent() { events.append(event) }
    return events
  }

  @Test func anUnterminatedOverlongLineIsDroppedWithoutBeingKept() {
    var framer = LineFramer(maximumLineLength: 8)
    #expect(feed(&framer, String(repeating: "x", count: 9)) == [.overlongLine])
    #expect(framer.bufferedBytes == 0)
    // More of the same line: discarded, reported no more.
    #expect(feed(&framer, String(repeating: "x", count: 1000)).isEmpty)
    #expect(framer.bufferedBytes == 0)
    #expect(framer.partialLineSince == nil)
    #expect(feed(&framer, "xx\nnext\n") == [line("next")])
  }

  @Test func anUnfinishedLineOfExactlyTheMaximumWaitsForItsNewline() {
    var framer = LineFramer(maximumLineLength: 4)
    #expect(feed(&framer, "abcd").isEmpty)
    #expect(feed(&framer, "\n") == [line("abcd")])
  }

  @Test func thePartialLineClockStartsAtItsFirstByteAndTimesOut() {
    var framer = LineFramer()
    #expect(framer.checkPartialLine(now: 5, timeout: 2) == .none)
    #expect(feed(&framer, "par", at: 10).isEmpty)
    #expect(framer.partialLineSince == 10)
    // Trickled bytes do not move the start.
    #expect(feed(&framer, "ti", at: 11).isEmpty)
    #expect(framer.checkPartialLine(now: 11.5, timeout: 2) == .waitUntil(12))
    #expect(framer.checkPartialLine(now: 12, timeout: 2) == .timedOut)
    // The line ends; what follows it starts a new clock at its arrival.
    #expect(feed(&framer, "al\nnext", at: 13) == [line("partial")])
    #expect(framer.partialLineSince == 13)
    #expect(feed(&framer, "\n", at: 14) == [line("next")])
    #expect(framer.partialLineSince == nil)
    #expect(framer.checkPartialLine(now: 100, timeout: 2) == .none)
  }

  @Test func takingTheBufferedBytesEmptiesTheFramer() {
    var framer = LineFramer()
    #expect(feed(&framer, "one\ntw", at: 3) == [line("one")])
    #expect(framer.takeBuffered() == Array("tw".utf8))
    #expect(framer.bufferedBytes == 0)
    #expect(framer.partialLineSince == nil)
    #expect(feed(&framer, "o\n") == [line("o")])
  }

  @Test func theMaximumIsAtLeastOne() {
    var framer = LineFramer(maximumLineLength: 0)
    #expect(framer.maximumLineLength == 1)
    framer.maximumLineLength = -3
    #expect(framer.maximumLineLength == 1)
  }
}
