import TransitionKit

/// Writes `frame` events as one line of JSON each, straight into a reused buffer.
///
/// The layer fields follow docs/architecture.md's frame contract and docs/protocol.md: `anchor` is left
/// out when it is [0.5, 0.5], `transform` when it is the identity, `alpha` when it is 1,
/// `hidden` when false; `background` and `content` appear only when the layer has them.
/// Numbers are written by the fixed-precision frame number writer
/// (``TransitionKit/FixedPrecisionNumber``, docs/protocol.md "Numbers in frames"): never
/// `null`, NaN, an infinity, `-0` or an exponent.
///
/// An encoder serves one timeline: it keeps each layer's encoded id and `content` by layer
/// index, and the session's line head, so that what never changes is written once.
public struct FrameEncoder {
  private var sink = ByteSink(capacity: 16 * 1024)
  /// `{"id":"…","frame":[` per layer index, for the layer's id at that index.
  private var layerHeads: [(id: String, bytes: [UInt8])] = []
  private var contentBytes: [[UInt8]?] = []
  /// `{"event":"frame","session":"…","seq":` for `headSession`.
  private var head: [UInt8] = []
  private var headSession: String?

  public init() {}

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
    if contentBytes.count != frame.layers.count {
      contentBytes = Array(repeating: nil, count: frame.layers.count)
      layerHeads = Array(repeating: (id: "", bytes: []), count: frame.layers.count)
    }
    frame.layers.withUnsafeBufferPointer { layers in
      for index in layers.indices {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        appendLayer(layers[index], index: index)
      }
    }
    sink.append("]}\n")
  }

  private mutating func appendLayer(_ layer: LayerState, index: Int) {
    if layerHeads[index].id != layer.id || layerHeads[index].bytes.isEmpty {
      var headSink = ByteSink(capacity: 64)
      headSink.append("{\"id\":")
      headSink.appendString(layer.id)
      headSink.append(",\"frame\":")
      layerHeads[index] = (layer.id, headSink.bytes)
    }
    sink.append(contentsOf: layerHeads[index].bytes)
    sink.appendFixed(layer.frame.x, prefix: UInt8(ascii: "["))
    sink.appendFixed(layer.frame.y, prefix: UInt8(ascii: ","))
    sink.appendFixed(layer.frame.width, prefix: UInt8(ascii: ","))
    sink.appendFixed(layer.frame.height, prefix: UInt8(ascii: ","))
    sink.append(UInt8(ascii: "]"))
    if layer.anchor != .center {
      sink.append(",\"anchor\":")
      sink.appendFixed(layer.anchor.x, prefix: UInt8(ascii: "["))
      sink.appendFixed(layer.anchor.y, prefix: UInt8(ascii: ","))
      sink.append(UInt8(ascii: "]"))
    }
    if layer.transform != .identity {
      sink.append(",\"transform\":")
      let m = layer.transform
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
    if layer.alpha != 1 {
      sink.append(",\"alpha\":")
      sink.appendFixed(layer.alpha)
    }
    if layer.hidden { sink.append(",\"hidden\":true") }
    sink.append(",\"z\":")
    sink.appendFixed(layer.z)
    if let background = layer.background {
      sink.append(",\"background\":")
      sink.appendColor(background)
    }
    if let content = layer.content {
      if contentBytes[index] == nil {
        var contentSink = ByteSink(capacity: 64)
        contentSink.appendJSON(content)
        contentBytes[index] = contentSink.bytes
      }
      sink.append(",\"content\":")
      if let bytes = contentBytes[index] { sink.append(contentsOf: bytes) }
    }
    sink.append(UInt8(ascii: "}"))
  }
}
