import Testing

@testable import TransitionClient

/// Splitting a byte stream into lines, whatever the chunk boundaries.
@Suite struct LineBufferTests {
  private func append(_ text: String, to buffer: inout LineBuffer) {
    Array(text.utf8).withUnsafeBytes { buffer.append($0) }
  }

  private func drain(_ buffer: inout LineBuffer) -> [String] {
    var lines: [String] = []
    while let line = buffer.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
    return lines
  }

  @Test func emptyBufferHasNoLine() {
    var buffer = LineBuffer()
    #expect(buffer.nextLine() == nil)
  }

  @Test func severalLinesInOneChunk() {
    var buffer = LineBuffer()
    append("{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n", to: &buffer)
    #expect(drain(&buffer) == ["{\"a\":1}", "{\"b\":2}", "", "{\"c\":3}"])
  }

  @Test func partialTrailingDataWaitsForItsNewline() {
    var buffer = LineBuffer()
    append("one\ntw", to: &buffer)
    #expect(drain(&buffer) == ["one"])
    append("o", to: &buffer)
    #expect(buffer.nextLine() == nil)
    append("\nthree", to: &buffer)
    #expect(drain(&buffer) == ["two"])
    append("\n", to: &buffer)
    #expect(drain(&buffer) == ["three"])
  }

  @Test func carriageReturnIsKept() {
    var buffer = LineBuffer()
    append("x\r\n", to: &buffer)
    #expect(buffer.nextLine() == Array("x\r".utf8))
  }

  @Test func byteAtATimeMatchesOneChunk() {
    let text = "alpha\nbeta gamma\n\ndelta\nrest"
    var whole = LineBuffer()
    append(text, to: &whole)
    var pieces = LineBuffer()
    var lines: [String] = []
    for character in text {
      append(String(character), to: &pieces)
      lines += drain(&pieces)
    }
    #expect(lines == drain(&whole))
    #expect(lines == ["alpha", "beta gamma", "", "delta"])
  }

  @Test func manyLinesThroughCompactionStayIntact() {
    var buffer = LineBuffer()
    var expected: [String] = []
    var received: [String] = []
    for index in 0..<500 {
      let line = "line \(index) " + String(repeating: "x", count: index % 37)
      expected.append(line)
      // Split each line over two chunks so that a partial line is often buffered.
      let bytes = Array((line + "\n").utf8)
      let cut = bytes.count / 2
      Array(bytes[..<cut]).withUnsafeBytes { buffer.append($0) }
      received += drain(&buffer)
      Array(bytes[cut...]).withUnsafeBytes { buffer.append($0) }
      if index % 3 == 0 { received += drain(&buffer) }
    }
    received += drain(&buffer)
    #expect(received == expected)
  }
}
