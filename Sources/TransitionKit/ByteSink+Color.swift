import TransitionJSON

extension ByteSink {
  /// Appends a colour as the JSON string `"#rrggbbaa"`, as `Color.hex` spells it.
  public mutating func appendColor(_ color: Color) {
    let (red, green, blue, alpha) = color.bytes
    append(UInt8(ascii: "\""))
    append(UInt8(ascii: "#"))
    appendHexByte(red)
    appendHexByte(green)
    appendHexByte(blue)
    appendHexByte(alpha)
    append(UInt8(ascii: "\""))
  }
}
