import Foundation
import Glibc
import UnixIO

/// Debian's `ffmpeg` turning a stream of PNG pictures into one file of a ``PictureFormat``.
///
/// ``add(_:)`` writes each PNG to ffmpeg's standard input (`-f image2pipe`); ``finish(progress:)``
/// closes it and waits while ffmpeg encodes, reporting the frames it has written (from its
/// `-progress` lines). ffmpeg's own messages go to a log whose end a failure quotes.
public final class PictureEncoder {
  /// Why encoding failed: ffmpeg's last lines.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  private let process: ChildProcess
  private var input: Int32
  private let progress: Int32
  private let logPath: String
  private var progressText: [UInt8] = []

  /// What each picture handed to ``add(_:)`` is.
  public enum Input: Equatable, Sendable {
    /// A PNG file's bytes (Chromium's screenshots).
    case png
    /// Raw RGBA pixels of this size, top row first (the native renderer's read-back).
    case rgba(width: Int, height: Int)
    /// Palette indices of this size, one byte a pixel, top row first, each frame followed by
    /// its 1,024-byte palette (ffmpeg's PAL8: ``ClipPalette``); only for a GIF, which ffmpeg
    /// then only compresses.
    case paletted(width: Int, height: Int)
  }

  /// The whole command line after the program: input from the pipe at `rate`, then the
  /// format's options, then `output`. Exposed for the docs and the tests.
  public static func arguments(
    format: PictureFormat, rate: PictureRate, loop: Bool, background: String, output: String,
    input: Input = .png
  ) -> [String] {
    let source: [String]
    switch input {
    case .png:
      source = ["-f", "image2pipe", "-framerate", rate.ffmpegValue, "-c:v", "png"]
    case .rgba(let width, let height):
      source = [
        "-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", "\(width)x\(height)", "-framerate",
        rate.ffmpegValue,
      ]
    case .paletted(let width, let height):
      source = [
        "-f", "rawvideo", "-pix_fmt", "pal8", "-video_size", "\(width)x\(height)", "-framerate",
        rate.ffmpegValue,
      ]
    }
    let encoding: [String]
    if case .paletted = input {
      encoding = format.palettedEncoderArguments(loop: loop)
    } else {
      encoding = format.encoderArguments(loop: loop, background: background)
    }
    return ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y"]
      + ["-reinit_filter", "0"] + source + ["-i", "pipe:0"]
      + encoding
      + ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", output]
  }

  /// Starts `ffmpeg` (a path) writing `output`.
  ///
  /// - Parameter log: a file for ffmpeg's standard error.
  /// - Throws: ``Failure`` when it cannot be started.
  public init(
    ffmpeg: String, format: PictureFormat, rate: PictureRate, loop: Bool, background: String,
    output: String, log: String, input kind: Input = .png
  ) throws(Failure) {
    logPath = log
    let logDescriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard logDescriptor >= 0 else {
      throw Failure(description: "cannot write \(log): \(String(cString: strerror(errno)))")
    }
    defer { close(logDescriptor) }
    let stdin: (read: Int32, write: Int32)
    let stdout: (read: Int32, write: Int32)
    do {
      stdin = try ChildProcess.pipe()
      stdout = try ChildProcess.pipe()
    } catch {
      throw Failure(description: error.description)
    }
    do {
      process = try ChildProcess(
        executable: ffmpeg,
        arguments: Self.arguments(
          format: format, rate: rate, loop: loop, background: background, output: output,
          input: kind),
        environment: ["PATH": "/usr/bin:/bin"],
        descriptors: [0: stdin.read, 1: stdout.write, 2: logDescriptor])
    } catch {
      for descriptor in [stdin.read, stdin.write, stdout.read, stdout.write] { close(descriptor) }
      throw Failure(description: error.description)
    }
    close(stdin.read)
    close(stdout.write)
    input = stdin.write
    progress = stdout.read
    _ = fcntl(progress, F_SETFL, fcntl(progress, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    if input >= 0 { close(input) }
    close(progress)
  }

  /// Hands ffmpeg one picture, as the encoder's ``Input`` says.
  ///
  /// - Throws: ``Failure`` with ffmpeg's complaint when it has stopped reading.
  public func add(_ png: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < png.count {
      let written = png.withUnsafeBytes { raw in
        Glibc.write(input, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        drainProgress()
        throw failure(prefix: "ffmpeg stopped reading")
      }
      offset += written
    }
    drainProgress()
  }

  /// Ends the input and waits until ffmpeg has written the file, calling `progress` with the
  /// count of frames it has encoded so far whenever that changes.
  ///
  /// - Throws: ``Failure`` when ffmpeg fails.
  public func finish(progress report: (Int) -> Void) throws(Failure) {
    close(input)
    input = -1
    var last = -1
    while true {
      var poller = pollfd(fd: progress, events: Int16(POLLIN), revents: 0)
      _ = poll(&poller, 1, 200)
      let open = drainProgress()
      let frames = encodedFrames
      if frames != last {
        last = frames
        report(frames)
      }
      if !open { break }
    }
    let status = process.wait()
    guard exitStatus(ofWaitStatus: status) == 0 else { throw failure(prefix: "ffmpeg failed") }
  }

  /// The last `frame=N` ffmpeg reported.
  private var encodedFrames: Int {
    guard let text = String(validating: progressText, as: UTF8.self),
      let line = text.split(separator: "\n").last(where: { $0.hasPrefix("frame=") })
    else { return 0 }
    return Int(line.dropFirst("frame=".count).trimmingSpaces) ?? 0
  }

  /// Reads what ffmpeg's progress pipe holds; false once it is closed.
  @discardableResult
  private func drainProgress() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(progress, $0.baseAddress, $0.count) }
      if count > 0 {
        progressText.append(contentsOf: chunk[..<count])
        // Keep the tail: only the last report matters.
        if progressText.count > 8192 { progressText.removeFirst(progressText.count - 4096) }
        continue
      }
      if count == 0 { return false }
      return errno == EAGAIN || errno == EINTR
    }
  }

  private func failure(prefix: String) -> Failure {
    process.send(SIGKILL)
    let status = process.wait()
    let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    let last = log.split(separator: "\n").last.map(String.init) ?? ""
    let why = exitStatus(ofWaitStatus: status).map { "status \($0)" } ?? "killed"
    return Failure(description: "\(prefix) (\(why))" + (last.isEmpty ? "" : ": \(last)"))
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " || text.last == "\r" { text = text.dropLast() }
    return text
  }
}
