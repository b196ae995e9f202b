import CTransitionGLES
import Glibc

/// An animated GIF written from a ``ClipPalette``'s frames by CTransitionGLES's GIF writer
/// (docs/renderer-gles.md, "GIF files"): the native renderer's GIF, with no ffmpeg process.
/// Each frame is stored as the rectangle that changed since the one before.
public final class GIFFile {
  /// Why the file cannot be written: the system's reason.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  public let path: String
  private let width: Int
  private let height: Int
  private let rate: PictureRate
  private let writer: OpaquePointer
  private var frames = 0

  /// Creates (or replaces) `path` for frames of `palette`'s size and colours, shown at `rate`,
  /// played forever when `loop`, else once.
  ///
  /// - Throws: ``Failure`` when the file cannot be created.
  public init(path: String, palette: ClipPalette, rate: PictureRate, loop: Bool) throws(Failure) {
    self.path = path
    width = palette.width
    height = palette.height
    self.rate = rate
    guard
      let writer = td_gles_gif_writer_new(
        path, Int32(width), Int32(height), palette.palette, loop ? 1 : 0)
    else {
      throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.writer = writer
  }

  deinit { td_gles_gif_writer_destroy(writer) }

  /// The delay of frame `position` in whole centiseconds, rounded so that the frames' start
  /// times stay within half a centisecond of the rate's.
  public static func delay(of position: Int, rate: PictureRate) -> Int {
    func start(_ frame: Int) -> Int {
      // frame × 100 / fps centiseconds, rounded to the nearest.
      (2 * frame * 100 * rate.denominator + rate.numerator) / (2 * rate.numerator)
    }
    return start(position + 1) - start(position)
  }

  /// Appends a PAL8 frame of the palette (``ClipPalette/paletted(cells:)``; its indices are
  /// read, its trailing palette is the file's).
  public func add(_ paletted: [UInt8]) throws(Failure) {
    precondition(paletted.count >= width * height, "a frame of another size")
    let delay = Self.delay(of: frames, rate: rate)
    frames += 1
    guard td_gles_gif_writer_add(writer, paletted, Int32(delay)) == 0 else {
      throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Ends the file.
  public func finish() throws(Failure) {
    guard td_gles_gif_writer_finish(writer) == 0 else {
      throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }
}
