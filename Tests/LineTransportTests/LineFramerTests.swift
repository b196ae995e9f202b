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

  @Test func everyCutOfTheInputGivesTheSameLines() {
    let input = Array("hello\n\nw\r\nlast one\nunfinished".utf8)
    let expected = [line("hello"), line(""), line("w\r"), line("last one")]
    for first in 0...input.count {
      for second in first...input.count {
        let chunks = [
          Array(input[..<first]), Array(input[first..<second]), Array(input[second...]),
        ]
        #expect(events(chunks) == expected, "cut at \(first) and \(second)")
      }
    }
  }

  @Test func everyCutOfAnOverlongLineIsReportedOnceAndDiscardedToItsNewline() {
    // Limit 4: "abcd" fits, "toolong" does not, "ok" after it is kept.
    let input = Array("abcd\ntoolong\nok\n".utf8)
    let expected = [line("abcd"), .overlongLine, line("ok")]
    for first in 0...input.count {
      for second in first...input.count {
        let chunks = [
          Array(input[..<first]), Array(input[first..<second]), Array(input[second...]),
        ]
        #expect(events(chunks, maximum: 4) == expected, "cut at \(first) and \(second)")
      }
    }
  }

  @Test func anUnterminatedOverlongLineIsDroppedWithoutBeingKept() {
    var framer = LineFramer(maximumLineLength: 8)
    framer.append(Array(repeating: UInt8(ascii: "x"), count: 9))
    do {
      let result = framer.nextEvent()
      #expect(result == .overlongLine)
    }
    #expect(framer.bufferedBytes == 0)
    // More of the same line: discarded, reported no more.
    framer.append(Array(repeating: UInt8(ascii: "x"), count: 1000))
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    #expect(framer.bufferedBytes == 0)
    #expect(framer.partialLineSince == nil)
    framer.append(Array("xx\nnext\n".utf8))
    do {
      let result = framer.nextEvent()
      #expect(result == line("next"))
    }
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
  }

  @Test func anUnfinishedLineOfExactlyTheMaximumWaitsForItsNewline() {
    var framer = LineFramer(maximumLineLength: 4)
    framer.append(Array("abcd".utf8))
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    framer.append(Array("\n".utf8))
    do {
      let result = framer.nextEvent()
      #expect(result == line("abcd"))
    }
  }

  @Test func thePartialLineClockStartsAtItsFirstByteAndTimesOut() {
    var framer = LineFramer()
    #expect(framer.checkPartialLine(now: 5, timeout: 2) == .none)
    framer.append(Array("par".utf8), at: 10)
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    #expect(framer.partialLineSince == 10)
    // Trickled bytes do not move the start.
    framer.append(Array("ti".utf8), at: 11)
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    #expect(framer.checkPartialLine(now: 11.5, timeout: 2) == .waitUntil(12))
    #expect(framer.checkPartialLine(now: 12, timeout: 2) == .timedOut)
    // The line ends; what follows it starts a new clock at its arrival.
    framer.append(Array("al\nnext".utf8), at: 13)
    do {
      let result = framer.nextEvent()
      #expect(result == line("partial"))
    }
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    #expect(framer.partialLineSince == 13)
    framer.append(Array("\n".utf8), at: 14)
    do {
      let result = framer.nextEvent()
      #expect(result == line("next"))
    }
    do {
      let result = framer.nextEvent()
      #expect(result == nil)
    }
    #expect(framer.partialLineSince == nil)
    #expect(framer.checkPartialLine(now: 100, timeout: 2) == .none)
  }

  @Test func theMaximumIsAtLeastOne() {
    var framer = LineFramer(maximumLineLength: 0)
    #expect(framer.maximumLineLength == 1)
    framer.maximumLineLength = -3
    #expect(framer.maximumLineLength == 1)
  }
}
