import TransitionJSON
import TransitionKit

/// Writes `frame` events as one line of JSON each, straight into a reused buffer.
///
/// The layer fields follow docs/protocol.md's `frame` event: `anchor` is left
/// out when it is [0.5, 0.5], `transform` when it is the identity, `alpha` when it is 1,
/// `hidden` when false; `background` and `content` appear only when the layer has them.
/// Every number is written as a number, never `null`, NaN or an infinity
/// (`ByteSink.appendFiniteNumber`).
/// It keeps each layer's encoded `content` by layer index, reused only while the layer's content
/// is the same value, so one encoder may serve frames of any timelines.
public struct FrameEncoder {
  /// A layer's `content` and its JSON text.
  private struct EncodedContent {
    var content: JSONValue
    var bytes: [UInt8]
  }

  private var sink = ByteSink(capacity: 16 * 1024)
  private var encodedContent: [EncodedContent?] = []

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
    sink.appendFiniteNumber(frame.t)
    sink.append(",\"progress\":")
    sink.appendFiniteNumber(frame.progress)
    sink.append(",\"layers\":[")
    if encodedContent.count != frame.layers.count {
      encodedContent = Array(repeating: nil, count: frame.layers.count)
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
    sink.appendFiniteNumber(layer.frame.x)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(layer.frame.y)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(layer.frame.width)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(layer.frame.height)
    sink.append(UInt8(ascii: "]"))
    if layer.anchor != .center {
      sink.append(",\"anchor\":[")
      sink.appendFiniteNumber(layer.anchor.x)
      sink.append(UInt8(ascii: ","))
      sink.appendFiniteNumber(layer.anchor.y)
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
      sink.appendFiniteNumber(layer.alpha)
    }
    if layer.hidden { sink.append(",\"hidden\":true") }
    sink.append(",\"z\":")
    sink.appendFiniteNumber(layer.z)
    if let background = layer.background {
      sink.append(",\"background\":")
      sink.appendColor(background)
    }
    if let content = layer.content {
      if encodedContent[index]?.content != content {
        var contentSink = ByteSink(capacity: 64)
        contentSink.appendJSON(content)
        encodedContent[index] = EncodedContent(content: content, bytes: contentSink.bytes)
      }
      sink.append(",\"content\":")
      sink.append(contentsOf: encodedContent[index]?.bytes ?? [])
    }
    sink.append(UInt8(ascii: "}"))
  }

  private mutating func appendRow(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
    sink.appendFiniteNumber(a)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(b)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(c)
    sink.append(UInt8(ascii: ","))
    sink.appendFiniteNumber(d)
  }
}
