import Foundation

/// Number formatting shared by the human-readable outputs.
enum NumberText {
  /// `value` without a fractional part when it is integral, else with up to `digits` decimals.
  static func compact(_ value: Double, digits: Int = 3) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    var text = String(format: "%.\(digits)f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// `value` with exactly `digits` decimals.
  static func fixed(_ value: Double, digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
  }
}
