import Foundation
import Glibc
import TransitionJSON
import TransitionRender
import TransitionViewer
import TransitionWire

/// `transitionctl render INPUT --out FILE`: a recording (or a scene, played first on the
/// virtual clock) drawn frame by frame by the native renderer (OpenGL ES 3 offscreen,
/// docs/renderer-gles.md) or by the viewer page in headless Chromium, and encoded by ffmpeg
/// into a GIF, APNG, WebP or MP4, or written as a PNG sequence.
enum RenderCommand: Command {
  static let name = "render"
  static let summary =
    "Render a recording or a scene to a GIF, APNG, WebP or MP4 file or a PNG sequence."
  static let usage = """
    render RECORDING.ndjson|SCENE.json --out FILE.gif|.apng|.webp|.mp4|DIR/ [--fps N]
                         [--scale S] [--start S] [--end S] [--hold S] [--loop | --once]
                         [--background #RRGGBB] [--images DIR] [--session ID]
                         [--renderer native|chromium] [--no-content] [--quiet]
    """
  static let details = """
    Draws every output frame, by default with the native renderer (OpenGL ES 3 in an EGL
    surfaceless context, Mesa's llvmpipe without a GPU; content with cairo and pango), or with
    --renderer chromium by the viewer page in headless Chromium, one at a time (the frame is
    set, fonts and pictures are awaited and two animation frames pass, then the page is
    captured over the DevTools protocol); pipes the pictures into ffmpeg (the native
    renderer writes a GIF itself), or writes them as PNG files. Output frame k shows the recording's frame at start + k/fps (the last one at or
    before it), so the same input always gives the same pixels.

    INPUT is a recording as 'transitionctl play --out' writes it (it needs the session's
    begin event, which gives the container and the frame rate), or a scene file, which is
    first played through the daemon on the virtual clock at the output's frame rate.
    FILE's extension picks the format:
      .gif    one palette for the clip (from the frames' differences), ordered dither;
              at most 50 fps: delays are whole centiseconds, so the rate becomes 100/n
              (50, 33.3, 25, ...) and a note says so
      .apng   lossless, .webp lossless, .mp4 H.264 yuv420p, BT.709, padded to even size
      DIR/    (a trailing slash) a PNG sequence DIR/frame-00000.png, frame-00001.png, ...

    options:
      --out FILE        the file to write (required); written whole or not at all
      --fps N           output frames per second (default: the recording's)
      --scale S         pixels per point, 0.1 to 4 (default 1)
      --start S, --end S
                        seconds from the first frame to render from and to (default: all)
      --hold S          keep the last frame S seconds more (a looping picture's pause)
      --loop, --once    play forever (the default) or once (GIF, APNG, WebP)
      --background C    the stage's colour behind the layers, #RRGGBB (default #000000)
      --images DIR      where the scene's content.image files are (default: images/ beside
                        INPUT, when there is one)
      --session ID      which session of the recording (default: the first)
      --renderer R      native (the default) or chromium (the viewer page)
      --no-content      geometry and colours only: no layer's content is drawn
      --animator NAME, --duration S
                        for a scene: as for 'play'
      --quiet, -q       no progress bar and no notes

    environment: CHROMIUM and FFMPEG name the programs (default: chromium, ffmpeg on PATH).

    exit status:
      0 written, 64 bad arguments or an unknown extension, 65 the input is not a recording
      or scene that can be rendered (no begin event, no frames), 66 it cannot be read,
      69 chromium, ffmpeg or an OpenGL ES context is not available (make setup installs
      them) or the daemon is unreachable, 70 the renderer, the browser or the encoder
      failed, 73 FILE cannot be written

    example:
      transitionctl render config/scenes/album-flip-push.json --out flip.gif --scale 0.5
    """
  static let flags: Set<String> = ["loop", "once", "quiet", "no-content"]
  /// How many tabs capture frames at once (``CapturePool``): 3 rendered the 1 s album flip
  /// in 5.7-9.8 s where 1 took 11-17 s (docs/performance.md, "Rendering").
  static let tabs = 3
  static let options: Set<String> = [
    "out", "fps", "scale", "start", "end", "hold", "background", "images", "session",
    "animator", "duration", "renderer",
  ]

  /// Which renderer draws the frames.
  enum Renderer: String {
    case native, chromium
  }

  /// Where the pictures go: an encoded file of a format, or a directory of PNG files.
  enum Destination {
    case file(String, PictureFormat)
    case pngSequence(String)
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let input = try arguments.positionals(
      minimum: 1, maximum: 1, names: "a RECORDING.ndjson or SCENE.json file", verb: name)[0]
    guard let output = arguments.value("out") else {
      throw .usage("render needs --out FILE (\(PictureFormat.listing)) or DIR/", verb: name)
    }
    let destination: Destination
    if output.hasSuffix("/") {
      destination = .pngSequence(output)
    } else if let format = PictureFormat(path: output) {
      destination = .file(output, format)
    } else {
      throw .usage(
        "cannot tell the format of \(output): its extension must be \(PictureFormat.listing)"
          + ", or end it with / for a PNG sequence", verb: name)
    }
    let rendererName = arguments.value("renderer") ?? Renderer.native.rawValue
    guard let renderer = Renderer(rawValue: rendererName) else {
      throw .usage("--renderer must be native or chromium, got '\(rendererName)'", verb: name)
    }
    let drawsContent = !arguments.has("no-content")
    let fps = try arguments.number("fps", in: FrameRate.range, verb: name)
    let scale = try arguments.number("scale", in: 0.1...4, verb: name) ?? 1
    let start = try arguments.number("start", in: 0...3600, verb: name)
    let end = try arguments.number("end", in: 0...3600, verb: name)
    let hold = try arguments.number("hold", in: 0...60, verb: name) ?? 0
    if let start, let end, end < start {
      throw .usage("--end \(end) comes before --start \(start)", verb: name)
    }
    if arguments.has("loop"), arguments.has("once") {
      throw .usage("give --loop or --once, not both", verb: name)
    }
    let background = arguments.value("background") ?? "#000000"
    guard background.count == 7, background.first == "#",
      background.dropFirst().allSatisfy(\.isHexDigit)
    else {
      throw .usage("--background needs a colour #RRGGBB, got '\(background)'", verb: name)
    }
    let quiet = arguments.has("quiet")
    let environment = ProcessInfo.processInfo.environment
    let searchPath = environment["PATH"]
    var chromium: String?
    if renderer == .chromium {
      chromium =
        ExecutableLookup.find(environment["CHROMIUM"] ?? "chromium", path: searchPath)
        ?? (environment["CHROMIUM"] == nil
          ? ExecutableLookup.find("chromium-browser", path: searchPath) : nil)
      guard chromium != nil else {
        throw CommandFailure(
          ExitCode.unavailable,
          "render --renderer chromium needs chromium, which is not installed "
            + "(make setup installs Debian's chromium)")
      }
    }
    var ffmpeg: String?
    // Every file but the native renderer's GIF, which the renderer library writes itself.
    if case .file(_, let format) = destination, renderer == .chromium || format != .gif {
      ffmpeg = ExecutableLookup.find(environment["FFMPEG"] ?? "ffmpeg", path: searchPath)
      guard ffmpeg != nil else {
        throw CommandFailure(
          ExitCode.unavailable,
          "render needs ffmpeg, which is not installed (make setup installs Debian's ffmpeg)")
      }
    }
    let inputBytes: [UInt8]
    do {
      inputBytes = Array(try Data(contentsOf: URL(fileURLWithPath: input)))
    } catch {
      let reason = FileManager.default.fileExists(atPath: input) ? "cannot read it" : "no such file"
      throw CommandFailure(ExitCode.noInput, "\(input): \(reason)")
    }
    let images = try imageDirectory(arguments.value("images"), beside: input)

    let sink = try PictureSink(destination: destination)
    var finished = false
    defer { if !finished { sink.discard() } }
    let work = try WorkDirectory()
    defer { work.remove() }

    // A scene is played first, on the virtual clock, at the rate the output plays.
    let format: PictureFormat? =
      if case .file(_, let format) = destination { format } else { nil }
    var recordingPath = input
    var recordingBytes = inputBytes
    if isScene(inputBytes) {
      let scene = try SceneFile(path: input)
      // Without --fps: the daemon's rate, except that a GIF cannot play its default 60.
      let rate =
        fps.map { format?.playableRate(for: $0).fps ?? $0 }
        ?? (format == .gif ? PictureFormat.gif.playableRate(for: 60).fps : nil)
      recordingPath = work.file("scene.ndjson")
      let writer = try OutputWriter(creatingFileAt: recordingPath)
      let client = try context.connect()
      defer { client.close() }
      let started = try PlayCommand.begin(
        scene, client: client, animator: arguments.value("animator") ?? scene.animator,
        duration: try arguments.number("duration", in: 0.001...3600, verb: name) ?? scene.duration,
        interactive: false, session: nil)
      _ = try PlayCommand.stream(
        session: started.session, client: client, fps: rate, clock: .virtual, to: writer)
      do {
        recordingBytes = Array(try Data(contentsOf: URL(fileURLWithPath: recordingPath)))
      } catch {
        throw CommandFailure(ExitCode.ioError, "cannot read back \(recordingPath)")
      }
    }

    let session: RecordedSession
    do {
      session = try RecordedSession(recording: recordingBytes, session: arguments.value("session"))
    } catch {
      throw CommandFailure(ExitCode.dataError, "\(input): \(error.description)")
    }
    let wanted = fps ?? session.fps
    let rate = format?.playableRate(for: wanted) ?? PictureRate(wanted)
    if abs(rate.fps - wanted) > 1e-9, !quiet {
      StandardStreams.note(
        "a GIF's frame delays are whole centiseconds: \(PictureRate(wanted)) fps resampled to \(rate) fps"
      )
    }
    let schedule = FrameSchedule(
      instants: session.instants, rate: rate.fps, start: start, end: end, hold: hold)
    guard !schedule.frames.isEmpty else {
      let length = (session.instants.last ?? 0) - (session.instants.first ?? 0)
      throw .usage(
        "--start \(start ?? 0) is past the end of session \(session.id) (\(length) s)", verb: name)
    }

    let progress = RenderProgress(total: schedule.frames.count, quiet: quiet)
    defer { progress.clear() }
    let drawing = RenderDrawing(
      session: session, recordingPath: absolute(recordingPath), recording: recordingBytes,
      frames: schedule.frames, scale: scale, background: background, images: images,
      drawsContent: drawsContent, work: work)
    let pixelSize: (width: Int, height: Int)
    switch renderer {
    case .native:
      pixelSize = try drawing.drawNatively(
        into: sink, ffmpeg: ffmpeg, rate: rate, loop: !arguments.has("once"), progress: progress)
    case .chromium:
      pixelSize = try drawing.drawWithChromium(
        chromium!, viewer: try viewerDirectory(), into: sink, ffmpeg: ffmpeg, rate: rate,
        loop: !arguments.has("once"), progress: progress)
    }
    try sink.commit()
    finished = true
    progress.clear()
    if !quiet {
      StandardStreams.note(
        "wrote \(output): \(schedule.frames.count) frames, "
          + "\(pixelSize.width)×\(pixelSize.height), \(rate) fps, \(sink.sizeDescription)")
    }
    return ExitCode.success
  }

  private static func viewerDirectory() throws(CommandFailure) -> String {
    guard let viewer = ViewerPage.directory(executableDirectory: executableDirectory) else {
      throw CommandFailure(
        ExitCode.unavailable, "cannot find the viewer page beside \(executableDirectory)")
    }
    return viewer
  }

  /// Whether `bytes` hold a scene (one JSON object with an `operation`) rather than a
  /// recording (one event a line).
  static func isScene(_ bytes: [UInt8]) -> Bool {
    guard let value = try? JSONValue(parsing: bytes) else { return false }
    return value["operation"] != nil && value["event"] == nil
  }

  /// `--images DIR`, or `images/` beside the input when it exists.
  private static func imageDirectory(_ given: String?, beside input: String) throws(CommandFailure)
    -> String?
  {
    var isDirectory: ObjCBool = false
    if let given {
      guard FileManager.default.fileExists(atPath: given, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw CommandFailure(ExitCode.noInput, "--images \(given): no such directory")
      }
      return absolute(given)
    }
    let beside = ((absolute(input) as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("images")
    return FileManager.default.fileExists(atPath: beside, isDirectory: &isDirectory)
      && isDirectory.boolValue ? beside : nil
  }

  static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  /// The directory of the running executable, where the viewer page's resources are.
  private static var executableDirectory: String {
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return (path as NSString).deletingLastPathComponent
  }
}
