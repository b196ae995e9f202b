import CTransitionGLES
import Glibc
import TransitionJSON

/// Frames drawn without a browser: the C renderer of `CTransitionGLES` (docs/renderer-gles.md)
/// in an EGL surfaceless OpenGL ES 3 context of its own, each frame drawn over the stage's
/// colour and read back as RGBA pixels. One thread uses it at a time (its context is current on
/// the thread that made it; ``render(_:)`` makes it current again).
public final class NativeRenderer {
  /// Why the renderer cannot be made.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  /// The picture's size in pixels: the container times the scale, rounded.
  public let pixelSize: (width: Int, height: Int)
  /// The GL renderer's name (e.g. llvmpipe).
  public let glRenderer: String
  private let scale: Double
  private let background: UInt32
  private let offscreen: OpaquePointer
  private let renderer: OpaquePointer
  private let contentDrawer: OpaquePointer?

  /// - Parameters:
  ///   - container: the container in points.
  ///   - scale: pixels per point.
  ///   - background: the stage's colour behind the layers, `#rrggbb`.
  ///   - images: where `content.image` pictures are, if anywhere.
  ///   - drawsContent: false draws geometry and colours only.
  /// - Throws: ``Failure`` when there is no EGL surfaceless display or OpenGL ES 3 context.
  public init(
    container: (width: Double, height: Double), scale: Double, background: String,
    images: String?, drawsContent: Bool
  ) throws(Failure) {
    pixelSize = (
      max(1, Int((container.width * scale).rounded())),
      max(1, Int((container.height * scale).rounded()))
    )
    self.scale = scale
    self.background = UInt32(background.dropFirst(), radix: 16) ?? 0
    var error = [CChar](repeating: 0, count: 256)
    guard
      let offscreen = td_gles_offscreen_new(
        Int32(pixelSize.width), Int32(pixelSize.height), &error, error.count)
    else {
      throw Failure(description: "no OpenGL ES context: " + Self.text(error))
    }
    guard let renderer = td_gles_renderer_new(&error, error.count) else {
      td_gles_offscreen_destroy(offscreen)
      throw Failure(description: "the GLES renderer: " + Self.text(error))
    }
    self.offscreen = offscreen
    self.renderer = renderer
    // Every frame starts from the same clear, so the layers that stay still are drawn once.
    _ = td_gles_renderer_keep_still_layers(renderer, 1)
    glRenderer = String(cString: td_gles_renderer_name())
    if drawsContent {
      let drawer = td_gles_content_drawer_new(images)
      contentDrawer = drawer
      td_gles_renderer_set_content(
        renderer, td_gles_content_drawer_texture, drawer.map { UnsafeMutableRawPointer($0) })
    } else {
      contentDrawer = nil
    }
  }

  deinit {
    _ = td_gles_offscreen_make_current(offscreen)
    td_gles_content_drawer_destroy(contentDrawer)
    td_gles_renderer_destroy(renderer)
    td_gles_offscreen_destroy(offscreen)
  }

  /// Draws `frame` (a frame event's members) on the stage's colour and returns its pixels:
  /// RGBA, top row first, `pixelSize.width × pixelSize.height × 4` bytes.
  public func render(_ frame: [String: JSONValue]) -> [UInt8] {
    _ = td_gles_offscreen_make_current(offscreen)
    td_gles_offscreen_clear(offscreen, background)
    let layers = (frame["layers"]?.arrayValue ?? []).compactMap(\.objectValue)
    var strings: [UnsafeMutablePointer<CChar>] = []
    let records = UnsafeMutablePointer<td_layer>.allocate(capacity: max(1, layers.count))
    let pointers = UnsafeMutablePointer<UnsafePointer<td_layer>?>.allocate(
      capacity: max(1, layers.count))
    defer {
      for string in strings { free(string) }
      records.deallocate()
      pointers.deallocate()
    }
    func copy(_ text: String) -> UnsafePointer<CChar> {
      let string = strdup(text)!
      strings.append(string)
      return UnsafePointer(string)
    }
    for (index, layer) in layers.enumerated() {
      (records + index).initialize(to: Self.layer(layer, copy: copy))
      pointers[index] = UnsafePointer(records + index)
    }
    var drawn = td_frame()
    drawn.size = UInt32(MemoryLayout<td_frame>.size)
    drawn.seq = UInt64(frame["seq"]?.numberValue ?? 0)
    drawn.t = frame["t"]?.numberValue ?? 0
    drawn.progress = frame["progress"]?.numberValue ?? 0
    drawn.layer_count = layers.count
    drawn.layers = UnsafePointer(pointers)
    _ = td_gles_renderer_draw(
      renderer, &drawn, Int32(pixelSize.width), Int32(pixelSize.height), scale)
    var pixels = [UInt8](repeating: 0, count: pixelSize.width * pixelSize.height * 4)
    _ = td_gles_offscreen_read(offscreen, &pixels)
    return pixels
  }

  /// Writes RGBA `pixels` of this renderer's size to `path` as a PNG.
  ///
  /// - Throws: ``Failure`` with the system's reason.
  public func writePNG(_ pixels: [UInt8], to path: String) throws(Failure) {
    guard
      td_gles_write_png(path, pixels, Int32(pixelSize.width), Int32(pixelSize.height)) == 0
    else {
      throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// A layer of a frame as the C renderer reads it, every default filled in (docs/renderers.md,
  /// "What a layer says").
  static func layer(_ layer: [String: JSONValue], copy: (String) -> UnsafePointer<CChar>)
    -> td_layer
  {
    var record = td_layer()
    record.size = UInt32(MemoryLayout<td_layer>.size)
    record.id = copy(layer["id"]?.stringValue ?? "")
    let frame = (layer["frame"]?.arrayValue ?? []).compactMap(\.numberValue)
    if frame.count == 4 { record.frame = (frame[0], frame[1], frame[2], frame[3]) }
    let anchor = (layer["anchor"]?.arrayValue ?? []).compactMap(\.numberValue)
    record.anchor = anchor.count == 2 ? (anchor[0], anchor[1]) : (0.5, 0.5)
    var m = (layer["transform"]?.arrayValue ?? []).compactMap(\.numberValue)
    if m.count != 16 { m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }
    record.transform = (
      m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13],
      m[14], m[15]
    )
    record.alpha = layer["alpha"]?.numberValue ?? 1
    record.hidden = layer["hidden"]?.boolValue == true ? 1 : 0
    record.z = layer["z"]?.numberValue ?? 0
    if let text = layer["background"]?.stringValue, let colour = Self.colour(text) {
      record.has_background = 1
      record.background = colour
    }
    if let content = layer["content"], content != .null {
      record.content = copy(content.serialized)
    }
    Self.appearance(layer, into: &record, copy: copy)
    return record
  }

  /// The layer's appearance members (docs/renderers.md, "Appearance") onto `record`, each at
  /// its default when absent or not of its form.
  static func appearance(
    _ layer: [String: JSONValue], into record: inout td_layer,
    copy: (String) -> UnsafePointer<CChar>
  ) {
    record.corner_radius = max(0, layer["cornerRadius"]?.numberValue ?? 0)
    record.clips = layer["clips"]?.boolValue == true ? 1 : 0
    if let border = layer["border"], let colour = border["color"]?.stringValue.flatMap(Self.colour)
    {
      record.border_width = max(0, border["width"]?.numberValue ?? 0)
      record.border_color = colour
    }
    if let shadow = layer["shadow"], let colour = shadow["color"]?.stringValue.flatMap(Self.colour)
    {
      record.shadow_color = colour
      record.shadow_blur = max(0, shadow["blur"]?.numberValue ?? 0)
      let offset = (shadow["offset"]?.arrayValue ?? []).compactMap(\.numberValue)
      if offset.count == 2 { record.shadow_offset = (offset[0], offset[1]) }
    }
    if let clipTo = layer["clipTo"]?.stringValue { record.clip_to = copy(clipTo) }
  }

  /// `#rrggbbaa` as its four bytes.
  static func colour(_ text: String) -> (UInt8, UInt8, UInt8, UInt8)? {
    let digits = Array(text.utf8)
    guard digits.count == 9, digits[0] == UInt8(ascii: "#"),
      let value = UInt32(text.dropFirst(), radix: 16)
    else { return nil }
    return (
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF)
    )
  }

  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
