/// The formats `transitionctl render` writes, picked by the output file's extension, with the
/// frame rates each can play and the ffmpeg options that encode it.
public enum PictureFormat: String, CaseIterable, Sendable {
  case gif, apng, webp, mp4

  /// The format of a file named `path`, by its extension (case-insensitive); nil for any other.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }

  /// The extensions, as a list for messages: `.gif, .apng, .webp or .mp4`.
  public static var listing: String {
    let names = allCases.map { "." + $0.rawValue }
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// The frame rate this format plays for a wish of `fps`: itself, except for a GIF, whose
  /// delays are whole centiseconds and which browsers play at 10 cs when the delay is 0 or 1,
  /// so 100/n for a whole n ≥ 2 (50, 33.3, 25, 20 …), the nearest to `fps` (the faster on a
  /// tie).
  public func playableRate(for fps: Double) -> PictureRate {
    guard self == .gif else { return PictureRate(fps) }
    let below = max(2, (100 / fps).rounded(.down))
    let above = max(2, (100 / fps).rounded(.up))
    let nearest =
      abs(100 / below - fps) <= abs(100 / above - fps) ? below : above
    return PictureRate(numerator: 100, denominator: Int(nearest))
  }

  /// The first filter of every format: Chromium writes some screenshots as RGBA and others as
  /// RGB (it drops the alpha channel when it can), and a filter graph that sees the format
  /// change is rebuilt, which loses what palettegen gathered; with `-reinit_filter 0` the graph
  /// stays and this scale (which follows a change of its input itself) makes every frame RGB.
  static let uniformRGB = "scale=flags=bitexact,format=rgb24"

  /// ffmpeg's options after a paletted input (``PictureEncoder/Input/paletted(width:height:)``):
  /// no filter, the GIF encoder's compression and its rectangles of what changes, the loop
  /// count. Only a GIF takes paletted frames; any other format gets its usual options.
  public func palettedEncoderArguments(loop: Bool) -> [String] {
    guard self == .gif else { return encoderArguments(loop: loop, background: "#000000") }
    return ["-c:v", "gif", "-loop", loop ? "0" : "-1", "-f", "gif"]
  }

  /// ffmpeg's options after its input: the filters, the codec, the loop count and the muxer.
  ///
  /// - Parameters:
  ///   - loop: play forever (GIF, APNG, WebP), or once; an MP4 has no loop count.
  ///   - background: `#rrggbb`, the colour an MP4's padding to even dimensions takes.
  public func encoderArguments(loop: Bool, background: String) -> [String] {
    switch self {
    case .gif:
      // One palette for the whole clip, made from what changes between frames, and an ordered
      // dither: error diffusion crawls on flat colours from one frame to the next.
      return [
        "-filter_complex",
        "[0:v]\(Self.uniformRGB),split[frames][stats];[stats]palettegen=stats_mode=diff[palette];"
          + "[frames][palette]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle",
        "-loop", loop ? "0" : "-1", "-f", "gif",
      ]
    case .apng:
      return ["-vf", Self.uniformRGB, "-c:v", "apng", "-plays", loop ? "0" : "1", "-f", "apng"]
    case .webp:
      return [
        "-vf", Self.uniformRGB, "-c:v", "libwebp", "-lossless", "1", "-loop", loop ? "0" : "1",
        "-f", "webp",
      ]
    case .mp4:
      // H.264 in 4:2:0 needs even dimensions; ffmpeg converts RGB with BT.601 unless told, so
      // convert with BT.709 and tag it so.
      let colour = "0x" + background.dropFirst()
      return [
        "-vf",
        "\(Self.uniformRGB),pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0:color=\(colour),"
          + "scale=flags=bitexact:out_color_matrix=bt709:out_range=tv,format=yuv420p",
        "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
        "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
        "-color_range", "tv", "-movflags", "+faststart", "-f", "mp4",
      ]
    }
  }
}
