import LineTransport
import Testing

/// Splitting a byte stream into lines, whatever the chunk boundaries, as the blocking
/// client reads them (no bound on the length).
@Suite struct LineFramerChunkTests {
  private func append(_ text: String, to buffer: inout LineFramer) {
    Array(text.utf8).withUnsafeBytes { buffer.append($0) }
  }

  private func drain(_ buffer: inout LineFramer) -> [String] {
    var lines: [String] = []
    while let line = nextLine(&buffer) { lines.append(String(decoding: line, as: UTF8.self)) }
    return lines
  }

  /// The next line's bytes, or nil.
  private func nextLine(_ buffer: inout LineFramer) -> [UInt8]? {
    guard case .line(let line) = buffer.nextEvent() else { return nil }
    return line
  }

  @Test func emptyBufferHasNoLine() {
    var buffer = LineFramer()
    #expect(nextLine(&buffer) == nil)
  }

  @Test func severalLinesInOneChunk() {
    var buffer = LineFramer()
    append("{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n", to: &buffer)
    #expect(drain(&buffer) == ["{\"a\":1}", "{\"b\":2}", "", "{\"c\":3}"])
  }

  @Test func partialTrailingDataWaitsForItsNewline() {
    var buffer = LineFramer()
    append("one\ntw", to: &buffer)
    #expect(drain(&buffer) == ["one"])
    append("o", to: &buffer)
    #expect(nextLine(&buffer) == nil)
    append("\nthree", to: &buffer)
    #expect(drain(&buffer) == ["two"])
    append("\n", to: &buffer)
    #expect(drain(&buffer) == ["three"])
  }

  @Test func carriageReturnIsKept() {
    var buffer = LineFramer()
    append("x\r\n", to: &buffer)
    #expect(nextLine(&buffer) == Array("x\r".utf8))
  }

  @Test func byteAtATimeMatchesOneChunk() {
    let text = "alpha\nbeta gamma\n\ndelta\nrest"
    var whole = LineFramer()
    append(text, to: &whole)
    var pieces = LineFramer()
    var lines: [String] = []
    for character in text {
      append(String(character), to: &pieces)
      lines += drain(&pieces)
    }
    #expect(lines == drain(&whole))
    #expect(lines == ["alpha", "beta gamma", "", "delta"])
  }

  @Test func manyLinesThroughCompactionStayIntact() {
    var buffer = LineFramer()
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
