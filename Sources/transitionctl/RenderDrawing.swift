import Foundation
import Glibc
import TransitionJSON
import TransitionRender

/// The drawing half of `transitionctl render`: the scheduled frames of one recorded session
/// drawn by the native renderer or by the viewer page in headless Chromium, and handed to
/// ffmpeg or written as PNG files.
struct RenderDrawing {
  let session: RecordedSession
  /// The recording as a file (the viewer page reads it) and as bytes (the native renderer).
  let recordingPath: String
  let recording: [UInt8]
  /// The recorded frame of each output position.
  let frames: [Int]
  let scale: Double
  let background: String
  let images: String?
  let drawsContent: Bool
  let work: WorkDirectory

  /// Draws with `NativeRenderer`; returns the picture's size in pixels.
  func drawNatively(
    into sink: PictureSink, ffmpeg: String?, rate: PictureRate, loop: Bool,
    progress: RenderProgress
  ) throws(CommandFailure) -> (width: Int, height: Int) {
    let recorded: RecordedFrames
    do {
      recorded = try RecordedFrames(recording: recording, session: session.id)
    } catch {
      throw CommandFailure(ExitCode.dataError, error.description)
    }
    let renderer: NativeRenderer
    do {
      renderer = try NativeRenderer(
        container: session.container, scale: scale, background: background, images: images,
        drawsContent: drawsContent)
    } catch {
      throw CommandFailure(
        ExitCode.unavailable,
        "\(error.description) (make setup installs libegl-mesa0 and libgl1-mesa-dri)")
    }
    let size = renderer.pixelSize
    if encodedFormat(sink) == .gif {
      return try drawGIF(
        renderer, recorded: recorded, into: sink, rate: rate, loop: loop, progress: progress)
    }
    let encoder = try ffmpeg.map { ffmpeg throws(CommandFailure) in
      try startEncoder(
        ffmpeg, sink: sink, rate: rate, loop: loop,
        input: .rgba(width: size.width, height: size.height))
    }
    progress.startPhase()
    var previous: (index: Int, pixels: [UInt8])?
    for (position, index) in frames.enumerated() {
      let pixels: [UInt8]
      if let previous, previous.index == index {
        pixels = previous.pixels
      } else {
        pixels = renderer.render(recorded.frames[min(index, recorded.frames.count - 1)])
        previous = (index, pixels)
      }
      if let encoder {
        do {
          try encoder.add(pixels)
        } catch {
          throw CommandFailure(ExitCode.software, error.description)
        }
      } else {
        do {
          try renderer.writePNG(pixels, to: sink.framePath(position))
        } catch {
          throw CommandFailure(ExitCode.cannotCreate, error.description)
        }
      }
      progress.update(position + 1, "drawn")
    }
    if let encoder { try finish(encoder, progress: progress) }
    return size
  }

  /// The native GIF: every frame drawn and counted into one ``ClipPalette`` (kept as its
  /// colour cells), then each mapped to it and written by ``GIFFile``, with no ffmpeg.
  private func drawGIF(
    _ renderer: NativeRenderer, recorded: RecordedFrames, into sink: PictureSink,
    rate: PictureRate, loop: Bool, progress: RenderProgress
  ) throws(CommandFailure) -> (width: Int, height: Int) {
    guard let partial = sink.partial else {
      throw CommandFailure(ExitCode.software, "no file to encode into")
    }
    let size = renderer.pixelSize
    let palette = ClipPalette(width: size.width, height: size.height)
    progress.startPhase()
    var drawn: [[UInt16]] = []
    var previous: (index: Int, cells: [UInt16])?
    for (position, index) in frames.enumerated() {
      if let previous, previous.index == index {
        drawn.append(previous.cells)
      } else {
        let pixels = renderer.render(recorded.frames[min(index, recorded.frames.count - 1)])
        let cells = palette.addCells(pixels)
        previous = (index, cells)
        drawn.append(cells)
      }
      progress.update(position + 1, "drawn")
    }
    palette.finish()
    progress.startPhase()
    do {
      let file = try GIFFile(path: partial.path, palette: palette, rate: rate, loop: loop)
      for (position, cells) in drawn.enumerated() {
        try file.add(palette.paletted(cells: cells))
        progress.update(position + 1, "encoded")
      }
      try file.finish()
    } catch {
      throw CommandFailure(ExitCode.cannotCreate, error.description)
    }
    return size
  }

  /// The format ffmpeg writes for `sink`, or nil for a PNG sequence.
  private func encodedFormat(_ sink: PictureSink) -> PictureFormat? {
    guard let partial = sink.partial, case .file(_, let format) = destinationFormat(partial) else {
      return nil
    }
    return format
  }

  /// Draws with the viewer page in headless Chromium; returns the picture's size in pixels.
  func drawWithChromium(
    _ chromium: String, viewer: String, into sink: PictureSink, ffmpeg: String?,
    rate: PictureRate, loop: Bool, progress: RenderProgress
  ) throws(CommandFailure) -> (width: Int, height: Int) {
    let browserLog = open(work.file("chromium.log"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    defer { if browserLog >= 0 { close(browserLog) } }
    let tabs: [ViewerCapture]
    let browser: HeadlessBrowser
    do {
      let page = ViewerCapture.Page(
        viewer: URL(fileURLWithPath: viewer).appendingPathComponent("index.html"),
        recording: URL(fileURLWithPath: recordingPath), session: session.id,
        container: session.container, scale: scale, background: background,
        images: images.map { URL(fileURLWithPath: $0, isDirectory: true) },
        drawsContent: drawsContent)
      browser = try HeadlessBrowser(
        executable: chromium, width: Int((session.container.width * scale).rounded(.up)),
        height: Int((session.container.height * scale).rounded(.up)),
        log: browserLog >= 0 ? browserLog : nil)
      tabs = try (0..<RenderCommand.tabs).map { _ throws(DevToolsPipe.Failure) in
        try ViewerCapture(browser: browser, page: page)
      }
    } catch {
      throw CommandFailure(ExitCode.software, "chromium: \(error.description)")
    }
    defer { browser.close() }
    let encoder = try ffmpeg.map { ffmpeg throws(CommandFailure) in
      try startEncoder(ffmpeg, sink: sink, rate: rate, loop: loop, input: .png)
    }
    progress.startPhase()
    do {
      try CapturePool(tabs: tabs, frames: frames).run { position, png in
        if let encoder {
          try encoder.add(png)
        } else {
          try sink.writeFrame(png, position: position)
        }
        progress.update(position + 1, "captured")
      }
    } catch let error as DevToolsPipe.Failure {
      throw CommandFailure(ExitCode.software, "chromium: \(error.description)")
    } catch let error as PictureEncoder.Failure {
      throw CommandFailure(ExitCode.software, error.description)
    } catch let error as CommandFailure {
      throw error
    } catch {
      throw CommandFailure(ExitCode.software, "\(error)")
    }
    browser.close()
    if let encoder { try finish(encoder, progress: progress) }
    return tabs[0].pixelSize
  }

  private func startEncoder(
    _ ffmpeg: String, sink: PictureSink, rate: PictureRate, loop: Bool,
    input: PictureEncoder.Input
  ) throws(CommandFailure) -> PictureEncoder {
    guard let partial = sink.partial, case .file(_, let format) = destinationFormat(partial) else {
      throw CommandFailure(ExitCode.software, "no file to encode into")
    }
    do {
      return try PictureEncoder(
        ffmpeg: ffmpeg, format: format, rate: rate, loop: loop, background: background,
        output: partial.path, log: work.file("ffmpeg.log"), input: input)
    } catch {
      throw CommandFailure(ExitCode.software, error.description)
    }
  }

  private func destinationFormat(_ partial: PartialFile) -> RenderCommand.Destination {
    PictureFormat(path: partial.finalPath).map { .file(partial.finalPath, $0) }
      ?? .pngSequence(partial.finalPath)
  }

  private func finish(_ encoder: PictureEncoder, progress: RenderProgress) throws(CommandFailure) {
    progress.startPhase()
    do {
      try encoder.finish { progress.update($0, "encoded") }
    } catch {
      throw CommandFailure(ExitCode.software, error.description)
    }
  }
}
