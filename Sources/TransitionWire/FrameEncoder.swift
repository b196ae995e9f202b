import TransitionJSON
import TransitionKit

/// Writes `frame` events as one line of JSON each, straight into a reused buffer.
///
/// The layer fields follow docs/architecture.md's frame contract and docs/protocol.md: `anchor` is left
/// out when it is [0.5, 0.5], `transform` when it is the identity, `alpha` when it is 1,
/// `hidden` when false; `background` and `content` appear only when the layer has them.
/// Numbers are written by the fixed-precision frame number writer
/// (``TransitionJSON/FixedPrecisionNumber``, docs/protocol.md "Numbers in frames"): never
/// `null`, NaN, an infinity, `-0` or an exponent.
///
/// It keeps each layer's encoded id head and `content` by layer index, and the session's line
/// head, so that what does not change is written once. A layer's cached `content` is reused
/// only while it is the same value, so one encoder may serve frames of any timelines; an
/// encoder made with `stableLayers` (``FrameRenderer``'s, which serves one timeline, whose
/// layers keep their ids and contents) skips that comparison.
public struct FrameEncoder {
  /// Grows to the largest frame once; small at first, as a daemon holds one per session.
  private var sink = ByteSink(capacity: 2_048)
  /// What never changes in a layer, written once: per layer index, `{"id":"…","frame":` and
  /// the `content` JSON, both as ranges of ``fragments`` (one flat buffer, so that appending
  /// them retains nothing).
  private var fragments: [UInt8] = []
  private var layerIDs: [String] = []
  private var headRanges: [Range<Int>] = []
  private var contentRanges: [Range<Int>?] = []
  /// The content each cached range was written from (compared unless `stableLayers`).
  private var contentValues: [JSONValue?] = []
  private let stableLayers: Bool
  /// `{"event":"frame","session":"…","seq":` for `headSession`.
  private var head: [UInt8] = []
  private var headSession: String?

  /// - Parameter stableLayers: True when every frame comes from one timeline, whose layers
  ///   keep their ids and contents: a layer's content is then not compared with the cached
  ///   one every frame.
  public init(stableLayers: Bool = false) {
    self.stableLayers = stableLayers
  }

  /// Encodes the `frame` event for `frame` of `session` and passes the `\n`-terminated line to
  /// `body`, borrowed from the encoder's buffer (valid only during the call): nothing is
  /// copied or reference-counted per frame.
  public mutating func encode<Result>(
    session: String, seq: Int, frame: Frame,
    _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    write(session: session, seq: seq, frame: frame)
    return try sink.bytes.withUnsafeBytes(body)
  }

  /// The `frame` event for `frame` of `session`, `\n`-terminated, as a new array.
  public mutating func encode(session: String, seq: Int, frame: Frame) -> [UInt8] {
    encode(session: session, seq: seq, frame: frame) { Array($0) }
  }

  private mutating func write(session: String, seq: Int, frame: Frame) {
    sink.bytes.removeAll(keepingCapacity: true)
    if headSession != session {
      var headSink = ByteSink(capacity: 64)
      headSink.append("{\"event\":\"frame\",\"session\":")
      headSink.appendString(session)
      headSink.append(",\"seq\":")
      head = headSink.bytes
      headSession = session
    }
    sink.append(contentsOf: head)
    sink.appendInteger(Int64(seq))
    sink.append(",\"t\":")
    sink.appendFixed(frame.t)
    sink.append(",\"progress\":")
    sink.appendFixed(frame.progress)
    sink.append(",\"layers\":[")
    if headRanges.count != frame.layers.count {
      fragments.removeAll(keepingCapacity: true)
      layerIDs = Array(repeating: "", count: frame.layers.count)
      headRanges = Array(repeating: 0..<0, count: frame.layers.count)
      contentRanges = Array(repeating: nil, count: frame.layers.count)
      contentValues = Array(repeating: nil, count: frame.layers.count)
    }
    // Each layer is read through a pointer, field by field: no layer state is copied (or
    // its id and content retained) per frame.
    frame.layers.withUnsafeBufferPointer { layers in
      guard let first = layers.baseAddress else { return }
      for index in layers.indices {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        appendLayer(first + index, index: index)
      }
    }
    sink.append("]}\n")
  }

  /// Appends `range` of ``fragments``.
  private mutating func appendFragment(_ range: Range<Int>) {
    fragments.withUnsafeBufferPointer { all in
      sink.append(contentsOf: UnsafeBufferPointer(rebasing: all[range]))
    }
  }

  private mutating func appendLayer(_ layer: UnsafePointer<LayerState>, index: Int) {
    if headRanges[index].isEmpty || layerIDs[index] != layer.pointee.id {
      var headSink = ByteSink(capacity: 64)
      headSink.append("{\"id\":")
      headSink.appendString(layer.pointee.id)
      headSink.append(",\"frame\":")
      layerIDs[index] = layer.pointee.id
      headRanges[index] = fragments.count..<fragments.count + headSink.bytes.count
      fragments.append(contentsOf: headSink.bytes)
      contentRanges[index] = nil
    }
    appendFragment(headRanges[index])
    let box = layer.pointee.frame
    sink.appendFixed(box.x, prefix: UInt8(ascii: "["))
    sink.appendFixed(box.y, prefix: UInt8(ascii: ","))
    sink.appendFixed(box.width, prefix: UInt8(ascii: ","))
    sink.appendFixed(box.height, prefix: UInt8(ascii: ","))
    sink.append(UInt8(ascii: "]"))
    let anchor = layer.pointee.anchor
    if anchor != .center {
      sink.append(",\"anchor\":")
      sink.appendFixed(anchor.x, prefix: UInt8(ascii: "["))
      sink.appendFixed(anchor.y, prefix: UInt8(ascii: ","))
      sink.append(UInt8(ascii: "]"))
    }
    let m = layer.pointee.transform
    if m != .identity {
      sink.append(",\"transform\":")
      sink.appendFixed(m.m11, prefix: UInt8(ascii: "["))
      sink.appendFixed(m.m12, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m13, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m14, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m21, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m22, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m23, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m24, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m31, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m32, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m33, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m34, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m41, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m42, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m43, prefix: UInt8(ascii: ","))
      sink.appendFixed(m.m44, prefix: UInt8(ascii: ","))
      sink.append(UInt8(ascii: "]"))
    }
    let alpha = layer.pointee.alpha
    if alpha != 1 {
      sink.append(",\"alpha\":")
      sink.appendFixed(alpha)
    }
    if layer.pointee.hidden { sink.append(",\"hidden\":true") }
    sink.append(",\"z\":")
    sink.appendFixed(layer.pointee.z)
    if let background = layer.pointee.background {
      sink.append(",\"background\":")
      sink.appendColor(background)
    }
    if layer.pointee.content != nil {
      if contentRanges[index] == nil
        || (!stableLayers && contentValues[index] != layer.pointee.content),
        let content = layer.pointee.content
      {
        var contentSink = ByteSink(capacity: 64)
        contentSink.appendJSON(content)
        contentRanges[index] = fragments.count..<fragments.count + contentSink.bytes.count
        contentValues[index] = stableLayers ? nil : content
        fragments.append(contentsOf: contentSink.bytes)
      }
      sink.append(",\"content\":")
      if let range = contentRanges[index] { appendFragment(range) }
    }
    sink.append(UInt8(ascii: "}"))
  }
}
