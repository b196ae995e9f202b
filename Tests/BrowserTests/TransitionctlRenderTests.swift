import Foundation
import Testing

@testable import IntegrationSupport

/// `transitionctl render` end to end: a recording the real daemon made, drawn by the viewer page
/// in real headless Chromium and encoded by real ffmpeg, checked with ffprobe; the same input
/// twice gives the same pixels; a scene is played first; and each way it can fail says so on
/// one line with its exit status.
@Suite(
  "transitionctl render", .serialized,
  .enabled(if: RenderTools.missingReason == nil, "\(RenderTools.missingReason ?? "")"))
struct TransitionctlRenderTests {
  /// A recording of album-flip's push at 30 fps on the virtual clock, with its frame instants.
  struct Recorded {
    let directory: TransitionctlTemporaryDirectory
    let path: String
    let instants: [Double]
  }

  static func record(fps: Int = 30) throws -> Recorded {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    let path = directory.file("flip.ndjson")
    let scene = TransitionctlProducts.scenes.appendingPathComponent("album-flip-push.json").path
    let result = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", String(fps), "--out", path],
      socket: daemon.socketPath)
    guard result.status == 0 else { throw TransitionctlHarnessError("play: \(result.stderr)") }
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    let instants = try lines.compactMap { line -> Double? in
      let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return event?["event"] as? String == "frame" ? event?["t"] as? Double : nil
    }
    return Recorded(directory: directory, path: path, instants: instants)
  }

  static func render(_ arguments: [String], environment: [String: String] = [:]) throws
    -> TransitionctlResult
  {
    // Chromium starting among the suite's other browsers on a busy 2-core machine can take
    // long: a generous bound, only against a hang.
    try TransitionctlRun.run(
      ["render"] + arguments, socket: nil, environment: environment, bound: 300)
  }

  /// The output frames a clip of `instants` has at `rate` fps: one at every 1/rate s from the
  /// first frame to the last, and the last frame after them when that grid misses it.
  static func expectedFrames(_ instants: [Double], rate: Double) -> Int {
    let length = (instants.last! - instants.first!) * rate
    let onGrid = Int((length + 1e-6).rounded(.down)) + 1
    return abs(length - length.rounded()) < 1e-6 ? onGrid : onGrid + 1
  }

  @Test("each format holds every frame at the size asked, the GIF resampled to 33.3 fps")
  func everyFormat() throws {
    let recorded = try Self.record()
    defer { recorded.directory.remove() }
    #expect(recorded.instants.count == 31)
    for format in ["gif", "apng", "webp", "mp4"] {
      let output = recorded.directory.file("flip.\(format)")
      let result = try Self.render([recorded.path, "--out", output, "--scale", "0.5"])
      #expect(result.status == 0, "\(format): \(result.stderr)")
      // The container is 390 × 844 points; at 0.5 that is 195 × 422 (an MP4 pads to even).
      switch format {
      case "webp":
        let webp = try AnimatedWebP(contentsOfFile: output)
        #expect(webp.width == 195 && webp.height == 422)
        #expect(webp.frameKinds.count == 31)
        #expect(webp.frameKinds.allSatisfy { $0 == "VP8L" }, "lossless: \(webp.frameKinds)")
        #expect(webp.loopCount == 0)
      default:
        let info = try RenderTools.probe(output)
        let expected =
          format == "gif" ? Self.expectedFrames(recorded.instants, rate: 100.0 / 3) : 31
        #expect(info["nb_read_frames"] == String(expected), "\(format): \(info)")
        #expect(info["width"] == (format == "mp4" ? "196" : "195"), "\(format): \(info)")
        #expect(info["height"] == "422", "\(format): \(info)")
      }
      if format == "gif" {
        #expect(result.stderr.contains("30 fps resampled to 33.3 fps"), "\(result.stderr)")
      }
      if format == "mp4" {
        let info = try RenderTools.probe(output)
        #expect(info["codec_name"] == "h264")
        #expect(info["pix_fmt"] == "yuv420p")
        #expect(info["color_space"] == "bt709")
        #expect(info["color_primaries"] == "bt709")
        #expect(info["color_transfer"] == "bt709")
      }
    }
  }

  @Test("rendering the same recording twice gives the same pixels, and the clip moves")
  func deterministic() throws {
    let recorded = try Self.record()
    defer { recorded.directory.remove() }
    for format in ["gif", "mp4"] {
      var digests: [[String]] = []
      for run in 0..<2 {
        let output = recorded.directory.file("run\(run).\(format)")
        let result = try Self.render([recorded.path, "--out", output, "--scale", "0.5", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "--quiet prints nothing: \(result.stderr)")
        digests.append(try RenderTools.frameDigests(output))
      }
      #expect(digests[0].count > 10)
      #expect(digests[0] == digests[1], "\(format)")
      #expect(Set(digests[0]).count > digests[0].count / 2, "\(format): frames should differ")
    }
    let apng = (0..<2).map { recorded.directory.file("run\($0).apng") }
    for output in apng {
      #expect(
        try Self.render([recorded.path, "--out", output, "--scale", "0.5", "-q"]).status == 0)
    }
    #expect(try RenderTools.frameDigests(apng[0]) == RenderTools.frameDigests(apng[1]))
  }

  @Test("--start and --end cut the clip; --fps resamples it")
  func cutAndResample() throws {
    let recorded = try Self.record()
    defer { recorded.directory.remove() }
    let cut = recorded.directory.file("cut.mp4")
    let result = try Self.render([
      recorded.path, "--out", cut, "--scale", "0.25", "--start", "0.1", "--end", "0.2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // 30 fps from 0.1 s to 0.2 s: 0.1, 0.1333, 0.1667, 0.2.
    #expect(try RenderTools.probe(cut)["nb_read_frames"] == "4")
    let slow = recorded.directory.file("slow.apng")
    #expect(
      try Self.render([recorded.path, "--out", slow, "--scale", "0.25", "--fps", "10"]).status == 0)
    #expect(try RenderTools.probe(slow)["nb_read_frames"] == "11")
  }

  @Test("a scene is played through the daemon on the virtual clock at the output's rate")
  func sceneInput() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let output = directory.file("slide.gif")
    let scene = TransitionctlProducts.scenes.appendingPathComponent("default-slide-push.json").path
    let result = try TransitionctlRun.run(
      ["render", scene, "--out", output, "--scale", "0.25", "--fps", "25"],
      socket: daemon.socketPath, bound: 300)
    #expect(result.status == 0, "\(result.stderr)")
    // As many frames as the same scene played at 25 fps on the virtual clock has.
    let played = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "25"], socket: daemon.socketPath)
    let frames = try TransitionctlRecording(played.lines()).frames.count
    #expect(frames > 5)
    #expect(try RenderTools.probe(output)["nb_read_frames"] == String(frames))
    #expect(!result.stderr.contains("resampled"), "25 fps is a GIF's own: \(result.stderr)")
  }

  @Test("pictures are drawn when the images directory is given, the label otherwise")
  func pictures() throws {
    let recorded = try Self.record()
    defer { recorded.directory.remove() }
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let empty = recorded.directory.file("no-images")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    func firstFrame(images: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
      let output = recorded.directory.file("first.apng")
      let result = try Self.render([
        recorded.path, "--out", output, "--end", "0", "--images", images, "-q",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      return try RenderTools.rgbFrame(output, index: 0)
    }
    // album-1's cover is at (16, 107, 171, 171), grey #d8d8d8 under its picture; its centre is
    // the label's text without the picture, and the picture's sky 40 points down from its top.
    func pixel(_ frame: (width: Int, height: Int, rgb: [UInt8]), _ x: Int, _ y: Int) -> [UInt8] {
      let at = (y * frame.width + x) * 3
      return Array(frame.rgb[at..<at + 3])
    }
    let with = try firstFrame(images: images)
    let without = try firstFrame(images: empty)
    #expect(pixel(without, 40, 147) == [0xd8, 0xd8, 0xd8])
    let sky = pixel(with, 40, 147)
    #expect(sky != [0xd8, 0xd8, 0xd8], "the picture is drawn: \(sky)")
    let picture = try RenderTools.rgbFrame(images + "/album-1.jpg", index: 0)
    // The cover shows the 240 × 240 picture scaled to 171: (40 − 16, 147 − 107) × 240/171.
    let expected = pixel(picture, 34, 56)
    #expect(zip(sky, expected).allSatisfy { abs(Int($0) - Int($1)) <= 12 }, "\(sky) vs \(expected)")
  }

  @Test("the native GIF's frames are the PNG sequence's pixels within its palette and dither")
  func nativeGIFMatchesPNGSequence() throws {
    // 25 fps is a GIF's own rate: the GIF and the PNG sequence hold the same frames.
    let recorded = try Self.record(fps: 25)
    defer { recorded.directory.remove() }
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let gif = recorded.directory.file("flip.gif")
    let directory = recorded.directory.file("frames") + "/"
    for output in [gif, directory] {
      let result = try Self.render([
        recorded.path, "--out", output, "--scale", "0.5", "--images", images, "-q",
      ])
      #expect(result.status == 0, "\(output): \(result.stderr)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(files.count == recorded.instants.count)
    let info = try RenderTools.probe(gif)
    #expect(info["nb_read_frames"] == String(files.count), "\(info)")
    #expect(info["width"] == "195" && info["height"] == "422", "\(info)")
    for index in [0, files.count / 3, files.count / 2, files.count - 1] {
      let decoded = try RenderTools.rgbFrame(gif, index: index)
      let drawn = try PNGImage(contentsOfFile: directory + files[index])
      #expect(decoded.width == drawn.width && decoded.height == drawn.height)
      var off = 0
      for pixel in 0..<(drawn.width * drawn.height) {
        let far = (0..<3).contains { channel in
          abs(Int(decoded.rgb[pixel * 3 + channel]) - Int(drawn.pixels[pixel * 4 + channel])) > 24
        }
        if far { off += 1 }
      }
      let share = Double(off) / Double(drawn.width * drawn.height)
      #expect(share <= 0.02, "frame \(index): \(off) pixels off by more than 24/255")
    }
  }

  @Test(
    "a PNG sequence holds every output frame; --no-content leaves pictures out, either renderer")
  func pngSequence() throws {
    let recorded = try Self.record(fps: 10)
    defer { recorded.directory.remove() }
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    /// Frame 0 of `renderer` as a PNG sequence in a directory of its own: its files and the
    /// first picture.
    func sequence(_ name: String, _ options: [String]) throws -> ([String], PNGImage) {
      let directory = recorded.directory.file(name) + "/"
      let result = try Self.render(
        [recorded.path, "--out", directory, "--images", images, "-q"] + options)
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      return (files, try PNGImage(contentsOfFile: directory + "frame-00000.png"))
    }
    let (files, native) = try sequence("native", [])
    #expect(files == (0..<recorded.instants.count).map { String(format: "frame-%05d.png", $0) })
    #expect(native.width == 390 && native.height == 844)
    // album-1's cover at (16, 107, 171, 171): its picture, or its grey #d8d8d8 without content.
    let (_, bare) = try sequence("native-bare", ["--no-content"])
    let (_, chromiumBare) = try sequence(
      "chromium-bare", ["--no-content", "--renderer", "chromium"])
    for picture in [bare, chromiumBare] {
      let grey = picture.pixel(40, 147)
      #expect([grey.r, grey.g, grey.b] == [0xd8, 0xd8, 0xd8])
    }
    let drawn = native.pixel(40, 147)
    #expect([drawn.r, drawn.g, drawn.b] != [0xd8, 0xd8, 0xd8], "the picture is drawn")
  }

  @Test("odd layers draw what they can: a huge box, a layer behind the eye, a flat matrix")
  func oddLayers() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let begin =
      ##"{"event":"begin","session":"s1","container":[100,80],"fps":10,"animator":"x","operation":"push"}"##
    let layers = [
      ##"{"id":"huge","frame":[0,0,1e9,1e9],"z":1,"background":"#ff0000ff","content":{"text":"x"}}"##,
      ##"{"id":"behind","frame":[10,10,50,50],"z":2,"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,-1],"##
        + ##""background":"#00ff00ff","content":{"image":"../../etc/passwd"}}"##,
      ##"{"id":"list","frame":[-5,-5,0,0],"z":-1e308,"content":[1,2,{"a":null}]}"##,
      ##"{"id":"short","frame":[1,2],"z":3,"background":"#zz","content":{"tabs":[],"keyboard":1}}"##,
      ##"{"id":"flat","frame":[1,2,3,4],"z":4,"transform":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"##
        + ##""background":"#0000ffff","content":"\ud83d\ude00"}"##,
    ]
    let frame =
      ##"{"event":"frame","session":"s1","seq":0,"t":0,"progress":0,"layers":["##
      + layers.joined(separator: ",") + "]}"
    let input = try directory.write("odd.ndjson", begin + "\n" + frame + "\n")
    let output = directory.file("odd") + "/"
    let result = try Self.render([input, "--out", output, "-q"])
    #expect(result.status == 0, "\(result.stderr)")
    // The huge red box covers the picture; the green layer, wholly behind the eye, draws
    // nothing, and the blue one, whose matrix flattens it to nothing, neither.
    let picture = try PNGImage(contentsOfFile: output + "frame-00000.png")
    #expect(picture.width == 100 && picture.height == 80)
    let centre = picture.pixel(50, 40)
    #expect(centre.r > 200 && centre.g < 40 && centre.b < 40, "\(centre)")
    var stray = 0
    for y in 0..<picture.height {
      for x in 0..<picture.width {
        let p = picture.pixel(x, y)
        if p.g > p.r || p.b > p.r { stray += 1 }
      }
    }
    #expect(stray == 0)
  }

  @Test("each failure is one line with its exit status, and leaves no file behind")
  func failures() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let begin =
      #"{"event":"begin","session":"s1","container":[40,30],"fps":10,"animator":"x","operation":"push"}"#
    let frame = #"{"event":"frame","session":"s1","seq":0,"t":0,"progress":0,"layers":[]}"#
    let good = try directory.write("good.ndjson", begin + "\n" + frame + "\n")
    let noBegin = try directory.write("no-begin.ndjson", frame + "\n")
    let empty = try directory.write("empty.ndjson", "")
    let noFrames = try directory.write("no-frames.ndjson", begin + "\n")
    let out = directory.file("out.gif")
    let cases: [(String, [String], [String: String], Int32, String)] = [
      (
        "no chromium", [good, "--out", out, "--renderer", "chromium"],
        ["CHROMIUM": "/nonexistent/chromium"], 69, "chromium"
      ),
      ("unknown renderer", [good, "--out", out, "--renderer", "skia"], [:], 64, "--renderer"),
      (
        "no ffmpeg", [good, "--out", directory.file("out.apng")],
        ["FFMPEG": "/nonexistent/ffmpeg"], 69, "ffmpeg"
      ),
      ("unknown extension", [good, "--out", directory.file("out.png")], [:], 64, ".gif, .apng"),
      ("no begin event", [noBegin, "--out", out], [:], 65, "no begin event"),
      ("empty recording", [empty, "--out", out], [:], 65, "empty"),
      ("no frames", [noFrames, "--out", out], [:], 65, "no frames"),
      (
        "output not writable", [good, "--out", "/nonexistent/dir/out.gif"], [:], 73, "cannot write"
      ),
      ("no input", [directory.file("missing.ndjson"), "--out", out], [:], 66, "no such file"),
      ("no --out", [good], [:], 64, "--out"),
    ]
    for (name, arguments, environment, status, message) in cases {
      let result = try Self.render(arguments, environment: environment)
      #expect(result.status == status, "\(name): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(name): one line, got \(result.stderr)")
      #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(Set(left) == ["good.ndjson", "no-begin.ndjson", "empty.ndjson", "no-frames.ndjson"])
    // And the good one renders.
    let result = try Self.render([good, "--out", out, "-q"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try RenderTools.probe(out)["width"] == "40")
  }
}
