/// Accumulates bytes read from a stream and hands them out one `\n`-terminated line at a time.
///
/// Bytes before the first newline stay buffered until the rest of the line arrives. Lines are
/// returned without their terminator; a `\r` before it is kept (the protocol never sends one).
struct LineBuffer {
  private var bytes: [UInt8] = []
  private var start = 0
  /// Where the search for the next newline resumes, so each byte is scanned once.
  private var scanned = 0

  /// Appends freshly read bytes.
  mutating func append(_ chunk: UnsafeRawBufferPointer) {
    if start > 0 && start * 2 >= bytes.count {
      bytes.removeFirst(start)
      scanned -= start
      start = 0
    }
    bytes.append(contentsOf: chunk)
  }

  /// Removes and returns the next complete line, or `nil` when no full line is buffered.
  mutating func nextLine() -> [UInt8]? {
    var index = max(scanned, start)
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        let line = Array(bytes[start..<index])
        start = index + 1
        scanned = start
        return line
      }
      index += 1
    }
    scanned = index
    return nil
  }
}
