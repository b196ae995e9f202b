import TransitionKit

/// Writes `frame` events as one line of JSON each, straight into a reused buffer.
///
/// The layer fields follow docs/architecture.md's frame contract and docs/protocol.md: `anchor` is left
/// out when it is [0.5, 0.5], `transform` when it is the identity, `alpha` when it is 1,
/// `hidden` when false; `background` and `content` appear only when the layer has them.
/// An encoder serves one timeline: it keeps each layer's encoded `content` by layer index.
public struct FrameEncoder {
  private var sink = ByteSink(capacity: 16 * 1024)
  private var contentBytes: [[UInt8]?] = []

  public init() {}

  /// The `frame` event for `frame` of `session`, `\n`-terminated. Write the bytes out and drop
  /// them before the next call, so the buffer is reused rather than copied.
  public mutating func encode(session: String, seq: Int, frame: Frame) -> [UInt8] {
    sink.bytes.removeAll(keepingCapacity: true)
    sink.append("{\"event\":\"frame\",\"session\":")
    sink.appendString(session)
    sink.append(",\"seq\":")
    sink.appendInteger(Int64(seq))
    sink.append(",\"t\":")
    sink.appendNumber(frame.t)
    sink.append(",\"progress\":")
    sink.appendNumber(frame.progress)
    sink.append(",\"layers\":[")
    if contentBytes.count != frame.layers.count {
      contentBytes = Array(repeating: nil, count: frame.layers.count)
    }
    for index in frame.layers.indices {
      if index > 0 { sink.append(UInt8(ascii: ",")) }
      appendLayer(frame.layers[index], index: index)
    }
    sink.append("]}\n")
    return sink.bytes
  }

  private mutating func appendLayer(_ layer: LayerState, index: Int) {
    sink.append("{\"id\":")
    sink.appendString(layer.id)
    sink.append(",\"frame\":[")
    sink.appendNumber(layer.frame.x)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(layer.frame.y)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(layer.frame.width)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(layer.frame.height)
    sink.append(UInt8(ascii: "]"))
    if layer.anchor != .center {
      sink.append(",\"anchor\":[")
      sink.appendNumber(layer.anchor.x)
      sink.append(UInt8(ascii: ","))
      sink.appendNumber(layer.anchor.y)
      sink.append(UInt8(ascii: "]"))
    }
    if layer.transform != .identity {
      sink.append(",\"transform\":[")
      let m = layer.transform
      appendRow(m.m11, m.m12, m.m13, m.m14)
      sink.append(UInt8(ascii: ","))
      appendRow(m.m21, m.m22, m.m23, m.m24)
      sink.append(UInt8(ascii: ","))
      appendRow(m.m31, m.m32, m.m33, m.m34)
      sink.append(UInt8(ascii: ","))
      appendRow(m.m41, m.m42, m.m43, m.m44)
      sink.append(UInt8(ascii: "]"))
    }
    if layer.alpha != 1 {
      sink.append(",\"alpha\":")
      sink.appendNumber(layer.alpha)
    }
    if layer.hidden { sink.append(",\"hidden\":true") }
    sink.append(",\"z\":")
    sink.appendNumber(layer.z)
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
      sink.append(contentsOf: contentBytes[index] ?? [])
    }
    sink.append(UInt8(ascii: "}"))
  }

  private mutating func appendRow(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
    sink.appendNumber(a)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(b)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(c)
    sink.append(UInt8(ascii: ","))
    sink.appendNumber(d)
  }
}
