import TransitionJSON
import TransitionKit

/// An `update` request read straight from its line with a ``JSONReader``, no tree built: the
/// request a finger or a scrubber sends 60 to 120 times a second, and one that comes after a
/// pause of a few milliseconds, when whatever it runs is out of the caches.
///
/// Only a line whose meaning is certain is taken: one JSON object of `op` `"update"`, a string
/// `session`, a number `progress` and/or a `touch` of two finite numbers within
/// ±``ContextBounds/maximumCoordinate``, and at most a number, string or null `id`, each at
/// most once. Anything else (another op, a member repeated or unknown, a value of another
/// type, text that is not JSON) gives nil, and ``Request`` reads the line as every other: the
/// replies, errors included, stay that path's.
public struct UpdateLine: Equatable, Sendable {
  public let session: String
  public let progress: Double?
  public let touch: Point?
  public let id: RequestID?

  /// Reads `line` (without its `\n`), or gives nil as said above.
  public init?(_ line: UnsafeBufferPointer<UInt8>) {
    var op: String?
    var session: String?
    var progress: Double?
    var touch: Point?
    var id: RequestID?
    var reader = JSONReader(line)
    do throws(JSONSyntaxError) {
      guard try reader.kind() == .object else { return nil }
      try reader.beginObject()
      while let name = try reader.nextMember() {
        let kind = try reader.kind()
        switch name {
        case "op" where op == nil && kind == .string: op = try reader.string()
        case "session" where session == nil && kind == .string: session = try reader.string()
        case "progress" where progress == nil && kind == .number: progress = try reader.number()
        case "touch" where touch == nil && kind == .array:
          guard let point = try Self.point(&reader) else { return nil }
          touch = point
        case "id" where id == nil && kind != .object && kind != .array:
          let start = reader.offset
          let value = try reader.value()
          id = RequestID(value: value, text: Array(line[start..<reader.offset]))
        default: return nil
        }
      }
      try reader.end()
    } catch {
      return nil
    }
    guard op == "update", let session, progress != nil || touch != nil else { return nil }
    self.session = session
    self.progress = progress
    self.touch = touch
    self.id = id
  }

  /// Reads `[x, y]`: nil unless it is two finite numbers within the coordinate bound.
  private static func point(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Point? {
    try reader.beginArray()
    guard try reader.nextElement(), try reader.kind() == .number else { return nil }
    let x = try reader.number()
    guard try reader.nextElement(), try reader.kind() == .number else { return nil }
    let y = try reader.number()
    guard try !reader.nextElement() else { return nil }
    guard ContextBounds.coordinate.contains(x), ContextBounds.coordinate.contains(y) else {
      return nil
    }
    return Point(x: x, y: y)
  }
}
