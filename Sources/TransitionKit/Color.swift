import TransitionJSON

/// An RGBA colour with components in [0, 1], written on the wire as `#rrggbbaa`.
public struct Color: Equatable, Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)

  /// Parses `#rrggbbaa` or `#rrggbb` (alpha 1), case-insensitive.
  /// - Throws: `EngineError.invalidValue` naming the text.
  public init(hex text: String) throws(EngineError) {
    let digits = Array(text.utf8)
    guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else {
      throw EngineError(
        .invalidValue, "colour must be \"#rrggbbaa\" or \"#rrggbb\", got \"\(text)\"")
    }
    var components: [Double] = []
    var index = 1
    while index < digits.count {
      guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1])
      else {
        throw EngineError(.invalidValue, "colour \"\(text)\" has a character that is not hex")
      }
      components.append(Double(high * 16 + low) / 255)
      index += 2
    }
    self.init(
      red: components[0], green: components[1], blue: components[2],
      alpha: components.count == 4 ? components[3] : 1)
  }

  /// The colour as `#rrggbbaa`, each component clamped to [0, 1] and rounded to 8 bits.
  public var hex: String {
    var sink = ByteSink(capacity: 11)
    sink.appendColor(self)
    return String(decoding: sink.bytes.dropFirst().dropLast(), as: UTF8.self)
  }

  /// The components as 8-bit values: clamped to [0, 1] (NaN as 0) and rounded.
  public var bytes: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    func byte(_ component: Double) -> UInt8 {
      UInt8((min(max(component.isNaN ? 0 : component, 0), 1) * 255).rounded())
    }
    return (byte(red), byte(green), byte(blue), byte(alpha))
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
  }
}

extension Color: Interpolatable {
  /// Component-wise interpolation of the straight (not premultiplied) components.
  public static func interpolate(from: Color, to: Color, by t: Double) -> Color {
    Color(
      red: lerp(from.red, to.red, t), green: lerp(from.green, to.green, t),
      blue: lerp(from.blue, to.blue, t), alpha: lerp(from.alpha, to.alpha, t))
  }
}
