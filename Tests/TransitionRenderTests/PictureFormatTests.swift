import Testing

@testable import TransitionRender

/// Formats by extension, the rates each can play and the encoder's settings.
@Suite struct PictureFormatTests {
  @Test func theExtensionPicksTheFormat() {
    #expect(PictureFormat(path: "/tmp/flip.gif") == .gif)
    #expect(PictureFormat(path: "out/Flip.APNG") == .apng)
    #expect(PictureFormat(path: "a.b/flip.webp") == .webp)
    #expect(PictureFormat(path: "flip.mp4") == .mp4)
    #expect(PictureFormat(path: "flip.png") == nil)
    #expect(PictureFormat(path: "flip") == nil)
    #expect(PictureFormat(path: "dir.gif/flip") == nil)
  }

  @Test(arguments: [
    (60.0, 100, 2), (50.0, 100, 2), (100.0, 100, 2), (30.0, 100, 3), (25.0, 100, 4),
    (24.0, 100, 4), (12.0, 100, 8),
  ])
  func aGIFPlaysAHundredthOfASecondTimesAWholeNumberOfAtLeastTwo(
    fps: Double, numerator: Int, denominator: Int
  ) {
    #expect(
      PictureFormat.gif.playableRate(for: fps)
        == PictureRate(numerator: numerator, denominator: denominator))
  }

  @Test func otherFormatsPlayTheRateAsked() {
    #expect(PictureFormat.mp4.playableRate(for: 60) == PictureRate(numerator: 60, denominator: 1))
    #expect(PictureFormat.apng.playableRate(for: 29.97).fps == 29.97)
    #expect(PictureRate(numerator: 100, denominator: 3).ffmpegValue == "100/3")
    #expect(PictureRate(numerator: 100, denominator: 3).description == "33.3")
  }

  @Test func theEncoderSettingsAreThoseThatKeepPicturesStill() {
    let gif = PictureEncoder.arguments(
      format: .gif, rate: PictureRate(numerator: 50, denominator: 1), loop: true,
      background: "#000000", output: "o"
    ).joined(separator: " ")
    #expect(gif.contains("palettegen=stats_mode=diff"))
    #expect(gif.contains("paletteuse=dither=bayer"))
    #expect(gif.contains("-loop 0"))
    #expect(gif.contains("-framerate 50"))
    let once = PictureEncoder.arguments(
      format: .apng, rate: PictureRate(numerator: 60, denominator: 1), loop: false,
      background: "#000000", output: "o"
    ).joined(separator: " ")
    #expect(once.contains("-plays 1"))
    let mp4 = PictureEncoder.arguments(
      format: .mp4, rate: PictureRate(numerator: 60, denominator: 1), loop: true,
      background: "#102030", output: "o"
    ).joined(separator: " ")
    for setting in [
      "libx264", "-pix_fmt yuv420p", "out_color_matrix=bt709", "-colorspace bt709",
      "-color_primaries bt709", "-color_trc bt709", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "0x102030",
    ] {
      #expect(mp4.contains(setting), "\(setting)")
    }
    let webp = PictureEncoder.arguments(
      format: .webp, rate: PictureRate(numerator: 60, denominator: 1), loop: true,
      background: "#000000", output: "o"
    ).joined(separator: " ")
    #expect(webp.contains("libwebp -lossless 1"))
  }

  @Test func palettedFramesGoToTheGIFEncoderWithNoFilter() {
    let gif = PictureEncoder.arguments(
      format: .gif, rate: PictureRate(numerator: 100, denominator: 3), loop: false,
      background: "#000000", output: "o", input: .paletted(width: 195, height: 422)
    ).joined(separator: " ")
    #expect(gif.contains("-f rawvideo -pix_fmt pal8 -video_size 195x422 -framerate 100/3"))
    #expect(gif.contains("-c:v gif -loop -1 -f gif"))
    #expect(!gif.contains("palettegen") && !gif.contains("-filter_complex"))
  }
}
