/// A frame rate as a fraction, so that a GIF's 33.3 fps is exactly 100/3 for ffmpeg.
public struct PictureRate: Equatable, Sendable, CustomStringConvertible {
  public let numerator: Int
  public let denominator: Int

  public init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// `fps` as a fraction over 1000 when it is not whole.
  public init(_ fps: Double) {
    if fps == fps.rounded() {
      self.init(numerator: Int(fps), denominator: 1)
    } else {
      self.init(numerator: Int((fps * 1000).rounded()), denominator: 1000)
    }
  }

  /// Frames per second.
  public var fps: Double { Double(numerator) / Double(denominator) }

  /// ffmpeg's form: `50` or `100/3`.
  public var ffmpegValue: String {
    denominator == 1 ? String(numerator) : "\(numerator)/\(denominator)"
  }

  /// For people: `50`, `33.3`.
  public var description: String {
    let tenths = (fps * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
}
