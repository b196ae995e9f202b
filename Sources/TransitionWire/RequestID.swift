import TransitionJSON
import TransitionKit

/// A request's `id`, kept as the exact JSON text the client sent, so that a reply echoes it
/// byte for byte: a number such as `9007199254740993` (2^53 + 1, which no Double holds) or
/// `1.50` comes back as written.
public struct RequestID: Equatable, Sendable {
  /// The id as a value (a number, a string or null).
  public let value: JSONValue
  /// The id's JSON text as the request spelled it.
  public let text: [UInt8]

  /// An id read from a request: `text` must be the JSON text of `value`.
  init(value: JSONValue, text: [UInt8]) {
    self.value = value
    self.text = text
  }

  /// An id written the way `ByteSink` writes `value`.
  public init(_ value: JSONValue) {
    var sink = ByteSink(capacity: 32)
    sink.appendJSON(value)
    self.init(value: value, text: sink.bytes)
  }
}
