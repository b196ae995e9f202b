import TransitionJSON

extension Color {
  /// The length of the text ``writeJSON(to:)`` writes: `"#rrggbbaa"` with its quotes.
  public static let jsonLength = 11

  /// Writes the colour as the JSON string `"#rrggbbaa"` (``jsonLength`` bytes, spelled as
  /// ``hex``) at `position`.
  public func writeJSON(to position: UnsafeMutablePointer<UInt8>) {
    func put(_ byte: UInt8, at index: Int) {
      position[index] = ByteSink.hexDigit(byte >> 4)
      position[index + 1] = ByteSink.hexDigit(byte & 15)
    }
    let (red, green, blue, alpha) = bytes
    position[0] = UInt8(ascii: "\"")
    position[1] = UInt8(ascii: "#")
    put(red, at: 2)
    put(green, at: 4)
    put(blue, at: 6)
    put(alpha, at: 8)
    position[10] = UInt8(ascii: "\"")
  }
}

extension ByteSink {
  /// Appends a colour as the JSON string `"#rrggbbaa"`, as `Color.hex` spells it.
  public mutating func appendColor(_ color: Color) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Color.jsonLength) { buffer in
      color.writeJSON(to: buffer.baseAddress!)
      append(contentsOf: UnsafeBufferPointer(buffer))
    }
  }
}
