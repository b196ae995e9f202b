import CTransitionGLES

/// One GIF palette for a whole clip, made from its frames, and each frame mapped to it: the
/// native renderer's GIF path (docs/renderer-gles.md, "GIF"), which hands ffmpeg frames ready to
/// compress instead of having it gather and apply a palette.
///
/// Add every frame in order with ``add(_:)``, then ``finish()`` once, then ``paletted(_:)``
/// each frame to be written.
public final class ClipPalette {
  /// The frames' size in pixels.
  public let width: Int
  public let height: Int
  /// Whether ``paletted(_:)`` adds the ordered dither (`bayer_scale=5` strength).
  public let dithers: Bool
  private let quantizer: OpaquePointer
  private var previous: [UInt8]?
  /// ffmpeg's PAL8 palette (256 native-endian `0xAARRGGBB` words), once ``finish()`` made it.
  public private(set) var palette: [UInt8] = []

  /// - Parameters:
  ///   - width, height: the frames' size in pixels.
  ///   - dithers: add the ordered dither when mapping.
  public init(width: Int, height: Int, dithers: Bool = true) {
    self.width = width
    self.height = height
    self.dithers = dithers
    quantizer = td_gles_quantizer_new()!
  }

  deinit { td_gles_quantizer_destroy(quantizer) }

  /// Counts a frame's colours (RGBA, `width × height × 4` bytes): all of the first frame's, and
  /// of each later one only the pixels that changed since the frame added before it.
  public func add(_ rgba: [UInt8]) {
    precondition(rgba.count == width * height * 4, "a frame of another size")
    if let previous {
      _ = td_gles_quantizer_add(quantizer, rgba, previous, Int32(width), Int32(height))
    } else {
      _ = td_gles_quantizer_add(quantizer, rgba, nil, Int32(width), Int32(height))
    }
    previous = rgba
  }

  /// Counts a frame's colours as ``add(_:)`` does and returns it as its colour cells: each
  /// pixel's 5-bit colour after the dither (`width × height`), for ``paletted(cells:)`` once
  /// the palette is made. A clip kept as cells takes half the memory of its RGBA frames, and
  /// the counting and the dither are one pass.
  public func addCells(_ rgba: [UInt8]) -> [UInt16] {
    precondition(rgba.count == width * height * 4, "a frame of another size")
    var cells = [UInt16](repeating: 0, count: width * height)
    cells.withUnsafeMutableBufferPointer { out in
      if let previous {
        _ = td_gles_quantizer_add_cells(
          quantizer, rgba, previous, Int32(width), Int32(height), dithers ? 1 : 0,
          out.baseAddress!)
      } else {
        _ = td_gles_quantizer_add_cells(
          quantizer, rgba, nil, Int32(width), Int32(height), dithers ? 1 : 0, out.baseAddress!)
      }
    }
    previous = rgba
    return cells
  }

  /// Makes the palette from the frames added; call once, after the last ``add(_:)``.
  public func finish() {
    palette = [UInt8](repeating: 0, count: 1024)
    _ = td_gles_quantizer_finish(quantizer, &palette)
    previous = nil
  }

  /// A frame (RGBA) as ffmpeg's PAL8 raw frame: `width × height` palette indices, then the
  /// 1,024-byte palette.
  public func paletted(_ rgba: [UInt8]) -> [UInt8] {
    precondition(rgba.count == width * height * 4, "a frame of another size")
    precondition(!palette.isEmpty, "finish() first")
    let pixels = width * height
    var frame = [UInt8](repeating: 0, count: pixels + 1024)
    frame.withUnsafeMutableBufferPointer { out in
      _ = td_gles_quantizer_map(
        quantizer, rgba, Int32(width), Int32(height), dithers ? 1 : 0, out.baseAddress!)
      palette.withUnsafeBufferPointer { source in
        (out.baseAddress! + pixels).update(from: source.baseAddress!, count: 1024)
      }
    }
    return frame
  }

  /// Cells from ``addCells(_:)`` as ffmpeg's PAL8 raw frame, as ``paletted(_:)`` makes it of
  /// the RGBA frame.
  public func paletted(cells: [UInt16]) -> [UInt8] {
    precondition(cells.count == width * height, "a frame of another size")
    precondition(!palette.isEmpty, "finish() first")
    let pixels = width * height
    var frame = [UInt8](repeating: 0, count: pixels + 1024)
    frame.withUnsafeMutableBufferPointer { out in
      _ = td_gles_quantizer_map_cells(quantizer, cells, pixels, out.baseAddress!)
      palette.withUnsafeBufferPointer { source in
        (out.baseAddress! + pixels).update(from: source.baseAddress!, count: 1024)
      }
    }
    return frame
  }
}
