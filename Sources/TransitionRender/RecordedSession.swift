import TransitionJSON

/// What rendering needs of one session of a recording (NDJSON as `transitionctl play --out`
/// writes it): its `begin` event's container and frame rate, and each frame's instant.
public struct RecordedSession: Sendable {
  /// The session's id.
  public let id: String
  /// The container, in points, from the `begin` event.
  public let container: (width: Double, height: Double)
  /// The stream's frame rate, from the `begin` event.
  public let fps: Double
  /// Each frame's `t`, in the order they were recorded.
  public let instants: [Double]

  /// Why a recording cannot be rendered.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  /// Reads `session` (default: the first session that appears) of the recording `text`.
  ///
  /// - Throws: ``Failure`` naming the line that is not JSON, a recording with no session
  ///   events, a session without its `begin` event (or one with no container), a session
  ///   without frames, or an unknown session.
  public init(recording text: [UInt8], session wanted: String?) throws(Failure) {
    var first: String?
    var begin: JSONValue?
    var instants: [Double] = []
    var lineNumber = 0
    for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      let event: JSONValue
      do {
        event = try JSONValue(parsing: line)
      } catch {
        throw Failure(description: "line \(lineNumber) is not JSON: \(error)")
      }
      guard let session = event["session"]?.stringValue else { continue }
      if first == nil, wanted == nil || wanted == session { first = session }
      guard session == first else { continue }
      switch event["event"]?.stringValue {
      case "begin": begin = event
      case "frame": instants.append(event["t"]?.numberValue ?? 0)
      default: break
      }
    }
    guard let id = first else {
      throw Failure(
        description: wanted.map { "the recording has no session \($0)" }
          ?? "the recording is empty: it holds no session events")
    }
    guard let begin else {
      throw Failure(
        description:
          "session \(id) has no begin event (record with transitionctl play --out, which writes it)"
      )
    }
    guard let size = begin["container"]?.arrayValue, size.count == 2,
      let width = size[0].numberValue, let height = size[1].numberValue, width > 0, height > 0
    else {
      throw Failure(description: "the begin event of session \(id) has no container [w, h]")
    }
    guard !instants.isEmpty else {
      throw Failure(description: "session \(id) has no frames: the recording is empty")
    }
    self.id = id
    self.container = (width, height)
    self.fps = begin["fps"]?.numberValue ?? 60
    self.instants = instants
  }
}
