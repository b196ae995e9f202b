/// The rule for animator names (and the layer names an animator adds): 1 to 64 characters from
/// `a-z`, `0-9`, `-`, `.`, `_`, such as `album-flip`.
public enum AnimatorName {
  /// The longest name, in bytes.
  public static let maximumLength = 64
  /// The rule in words, for messages.
  public static let rule = "1 to \(maximumLength) characters from a-z, 0-9, '-', '.', '_'"

  /// Whether `name` follows the rule.
  public static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= maximumLength
      && name.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      }
  }
}
