/// The rules for a session id a client chooses (docs/protocol.md, `begin`).
public enum SessionID {
  /// The longest id, in UTF-8 bytes.
  public static let maximumLength = 128

  /// Why `id` is not an acceptable session id, or nil when it is: 1 to `maximumLength` bytes,
  /// not `*`, and no control character of any kind (`isControl`).
  public static func problem(with id: String) -> String? {
    guard !id.isEmpty, id.utf8.count <= maximumLength else {
      return "session must be 1 to \(maximumLength) bytes long"
    }
    guard id != "*" else { return "session must not be \"*\"" }
    if let scalar = id.unicodeScalars.first(where: isControl) {
      let code = String(scalar.value, radix: 16, uppercase: true)
      return "session must not contain control characters, found U+"
        + String(repeating: "0", count: max(0, 4 - code.count)) + code
    }
    return nil
  }

  /// Whether `scalar` is a control character of any kind: Unicode categories Cc (C0, DEL, C1
  /// such as U+0085), Cf (format characters such as U+200B or the bidi overrides), Zl and Zp
  /// (U+2028, U+2029).
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
