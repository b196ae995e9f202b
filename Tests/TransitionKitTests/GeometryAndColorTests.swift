import Testing
import TransitionKit

/// Points, sizes, rects and colours: derived edges, `#rrggbbaa` parsing and printing, and
/// interpolation that is exact at both ends.
@Suite struct GeometryAndColorTests {
  // MARK: - Geometry

  @Test func rectEdgesAndCentreFollowFromOriginAndSize() {
    let rect = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(rect.minX == 10)
    #expect(rect.minY == 20)
    #expect(rect.maxX == 40)
    #expect(rect.maxY == 60)
    #expect(rect.midX == 25)
    #expect(rect.midY == 40)
    #expect(rect.center == Point(x: 25, y: 40))
    #expect(rect.offsetBy(dx: -10, dy: 5) == Rect(x: 0, y: 25, width: 30, height: 40))
  }

  @Test func rectAroundACentreKeepsTheCentre() {
    let rect = Rect(center: Point(x: 100, y: 50), size: Size(width: 40, height: 20))
    #expect(rect == Rect(x: 80, y: 40, width: 40, height: 20))
    #expect(rect.center == Point(x: 100, y: 50))
  }

  @Test func defaultAnchorIsTheUnitCentre() {
    #expect(Point.center == Point(x: 0.5, y: 0.5))
    #expect(Rect.zero == Rect(x: 0, y: 0, width: 0, height: 0))
  }

  // MARK: - Colour parsing and printing

  @Test(arguments: ["#00000000", "#ffffffff", "#12345678", "#a0b1c2d3", "#7f800180", "#ff00ff80"])
  func eightDigitColourRoundTrips(text: String) throws {
    let color = try Color(hex: text)
    #expect(color.hex == text)
  }

  @Test func eightDigitColourComponentsAreBytesOver255() throws {
    let color = try Color(hex: "#ff800040")
    #expect(color.red == 1)
    #expect(color.green == 128.0 / 255.0)
    #expect(color.blue == 0)
    #expect(color.alpha == 64.0 / 255.0)
  }

  @Test func sixDigitColourIsOpaque() throws {
    let color = try Color(hex: "#336699")
    #expect(color.red == 0x33 / 255.0)
    #expect(color.green == 0x66 / 255.0)
    #expect(color.blue == 0x99 / 255.0)
    #expect(color.alpha == 1)
    #expect(color.hex == "#336699ff")
  }

  @Test func upperCaseDigitsParseAndPrintInLowerCase() throws {
    #expect(try Color(hex: "#FF8000CC") == Color(hex: "#ff8000cc"))
    #expect(try Color(hex: "#AbCdEf").hex == "#abcdefff")
  }

  @Test func printingClampsAndRoundsEachComponent() {
    // 0.5 × 255 = 127.5 rounds away from zero to 128 = 0x80; NaN prints as 0.
    let color = Color(red: 2, green: -1, blue: 0.5, alpha: .nan)
    #expect(color.hex == "#ff008000")
    #expect(Color.clear.hex == "#00000000")
    #expect(Color.white.hex == "#ffffffff")
    #expect(Color.black.hex == "#000000ff")
  }

  @Test(arguments: [
    "", "#", "336699", "#33669", "#3366990", "#33669g", "#gg6699ff", "#3366999999", " #336699",
    "#33 699", "#ééé", "red",
  ])
  func malformedColourThrowsNamingTheText(text: String) {
    do {
      _ = try Color(hex: text)
      Issue.record("\"\(text)\" was accepted")
    } catch {
      #expect(error.code == .invalidValue)
      #expect(error.message.contains("\"\(text)\""))
    }
  }

  // MARK: - Interpolation

  /// End points chosen so that the naive `a + (b − a)·1` misses `b` in floating point.
  private let start = Color(red: 0.2, green: 0.7, blue: 0.9, alpha: 0.3)
  private let end = Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.85)

  @Test func colourInterpolationIsExactAtBothEnds() {
    #expect(0.2 + (0.9 - 0.2) * 1 != 0.9, "the end points must exercise the exact path")
    #expect(bits(Color.interpolate(from: start, to: end, by: 0)) == bits(start))
    #expect(bits(Color.interpolate(from: start, to: end, by: 1)) == bits(end))
  }

  @Test func colourInterpolationIsComponentWise() {
    let quarter = Color.interpolate(from: start, to: end, by: 0.25)
    #expect(abs(quarter.red - 0.375) < 1e-15)
    #expect(abs(quarter.green - 0.55) < 1e-15)
    #expect(abs(quarter.blue - 0.725) < 1e-15)
    #expect(abs(quarter.alpha - 0.4375) < 1e-15)
  }

  @Test func geometryInterpolationIsExactAtBothEnds() {
    let a = Rect(x: 0.2, y: 0.7, width: 0.9, height: 0.3)
    let b = Rect(x: 0.9, y: 0.1, width: 0.2, height: 0.85)
    #expect(Rect.interpolate(from: a, to: b, by: 0) == a)
    #expect(Rect.interpolate(from: a, to: b, by: 1) == b)
    #expect(Point.interpolate(from: a.origin, to: b.origin, by: 1) == b.origin)
    #expect(Size.interpolate(from: a.size, to: b.size, by: 1) == b.size)
    let half = Rect.interpolate(
      from: Rect(x: 0, y: 10, width: 100, height: 50),
      to: Rect(x: 20, y: 30, width: 200, height: 0),
      by: 0.5)
    #expect(half == Rect(x: 10, y: 20, width: 150, height: 25))
  }

  @Test func interpolationExtrapolatesOutsideTheUnitInterval() {
    #expect(lerp(10, 20, 1.5) == 25)
    #expect(lerp(10, 20, -0.5) == 5)
    #expect(Point.interpolate(from: .zero, to: Point(x: 4, y: -2), by: 2) == Point(x: 8, y: -4))
  }

  private func bits(_ color: Color) -> [UInt64] {
    [color.red.bitPattern, color.green.bitPattern, color.blue.bitPattern, color.alpha.bitPattern]
  }
}
