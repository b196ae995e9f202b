import Foundation

/// Debian's `ffmpeg` and `ffprobe`, which the render tests check `transitionctl render`'s files
/// with: frame counts, sizes, pixel formats, colour tags and the decoded pixels' digests.
enum RenderTools {
  static let ffmpeg = "/usr/bin/ffmpeg"
  static let ffprobe = "/usr/bin/ffprobe"

  /// Why the render tests are skipped, or nil when they can run.
  static var missingReason: String? {
    if let reason = HeadlessChromium.missingReason { return reason }
    return FileManager.default.isExecutableFile(atPath: ffmpeg)
      && FileManager.default.isExecutableFile(atPath: ffprobe)
      ? nil : "ffmpeg is not installed (make setup installs Debian's ffmpeg); render tests skipped"
  }

  /// ffprobe's `stream` entries of the first video stream, decoding every frame to count it.
  static func probe(_ path: String) throws -> [String: String] {
    let result = try DaemonHarness.runProgram(
      ffprobe,
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=nb_read_frames,width,height,pix_fmt,codec_name,color_space,color_primaries,"
          + "color_transfer", "-of", "default=noprint_wrappers=1", path,
      ])
    guard result.status == 0 else { throw DaemonHarnessError("ffprobe \(path): \(result.stderr)") }
    var entries: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { entries[parts[0]] = parts[1] }
    }
    return entries
  }

  /// One digest a decoded frame (`ffmpeg -f framemd5`), without the header lines.
  static func frameDigests(_ path: String) throws -> [String] {
    let result = try DaemonHarness.runProgram(
      ffmpeg, ["-v", "error", "-i", path, "-f", "framemd5", "-"])
    guard result.status == 0 else { throw DaemonHarnessError("ffmpeg \(path): \(result.stderr)") }
    return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
      .map { String($0.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces) }
  }

  /// Frame `index` of `path` decoded to RGB: (width, height, bytes).
  static func rgbFrame(_ path: String, index: Int) throws -> (width: Int, height: Int, rgb: [UInt8])
  {
    let info = try probe(path)
    let width = Int(info["width"] ?? "") ?? 0
    let height = Int(info["height"] ?? "") ?? 0
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let raw = directory + "/frame.rgb"
    let result = try DaemonHarness.runProgram(
      ffmpeg,
      [
        "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
        "-f", "rawvideo", "-pix_fmt", "rgb24", raw,
      ])
    guard result.status == 0 else { throw DaemonHarnessError("ffmpeg \(path): \(result.stderr)") }
    return (width, height, Array(try Data(contentsOf: URL(fileURLWithPath: raw))))
  }
}

/// What an animated WebP holds, read from its RIFF chunks (ffmpeg 5.1 cannot decode animated
/// WebP): the canvas, the loop count and each frame's image chunk.
struct AnimatedWebP {
  let width: Int
  let height: Int
  let loopCount: Int
  /// The four-letter kind of each frame's image: `VP8L` for lossless.
  let frameKinds: [String]

  init(contentsOfFile path: String) throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
    func little(_ at: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    guard bytes.count > 30, fourCC(0) == "RIFF", fourCC(8) == "WEBP", fourCC(12) == "VP8X" else {
      throw DaemonHarnessError("\(path) is not an extended WebP")
    }
    width = little(24, 3) + 1
    height = little(27, 3) + 1
    var loops = -1
    var kinds: [String] = []
    var offset = 12
    while offset + 8 <= bytes.count {
      let kind = fourCC(offset)
      let size = little(offset + 4, 4)
      if kind == "ANIM" { loops = little(offset + 12, 2) }
      // An ANMF's frame data starts 16 bytes in, with the image chunk (or ALPH first).
      if kind == "ANMF" {
        var inner = offset + 8 + 16
        if fourCC(inner) == "ALPH" { inner += 8 + ((little(inner + 4, 4) + 1) & ~1) }
        kinds.append(fourCC(inner))
      }
      offset += 8 + ((size + 1) & ~1)
    }
    loopCount = loops
    frameKinds = kinds
  }
}
