import TransitionJSON

/// An unsolicited message from the daemon: a line carrying `event` instead of `ok`.
public enum Event: Sendable {
  /// One evaluated frame of a session.
  case frame(FrameEvent)
  /// A session ended, finished or cancelled.
  case complete(CompleteEvent)
  /// A session started (sent to `*` subscribers).
  case begin(BeginEvent)
  /// The daemon is shutting down.
  case stopping
  /// An event this library does not model; `name` is its `event` field.
  case other(name: String, fields: [String: JSONValue], line: String)

  /// The session the event is about, when it is about one.
  public var session: String? {
    switch self {
    case .frame(let frame): frame.session
    case .complete(let complete): complete.session
    case .begin(let begin): begin.session
    case .stopping: nil
    case .other(_, let fields, _): fields["session"]?.stringValue
    }
  }

  /// The line the event arrived as, without its `\n`, for byte-exact forwarding.
  public var line: String {
    switch self {
    case .frame(let frame): frame.line
    case .complete(let complete): complete.line
    case .begin(let begin): begin.line
    case .stopping: #"{"event":"stopping"}"#
    case .other(_, _, let line): line
    }
  }

  /// Decodes an event from its fields.
  ///
  /// - Parameters:
  ///   - fields: the decoded line; must carry a string `event`.
  ///   - line: the raw line, kept by frames for byte-exact forwarding.
  /// - Throws: ``ClientError/Code/malformed`` when a known event lacks a required field.
  public init(fields: [String: JSONValue], line: String) throws(ClientError) {
    let object = JSONObject(fields, context: "event")
    let name = try object.string("event")
    switch name {
    case "frame":
      self = .frame(try FrameEvent(object, line: line))
    case "complete":
      self = .complete(try CompleteEvent(object, line: line))
    case "begin":
      self = .begin(try BeginEvent(object, line: line))
    case "stopping":
      self = .stopping
    default:
      self = .other(name: name, fields: fields, line: line)
    }
  }
}

/// A `frame` event: the state of every visible layer of one session at time ``t``.
public struct FrameEvent: Sendable {
  /// The session the frame belongs to.
  public let session: String
  /// The frame's number within this subscription and session, from 0; a gap means frames
  /// were coalesced because the reader was slow.
  public let seq: Int
  /// Seconds since the session began (session time, not wall time when the clock is virtual).
  public let t: Double
  /// The transition's progress in [0, 1].
  public let progress: Double
  /// The layers, as decoded objects (`id`, `frame`, `transform`, …).
  public let layers: [[String: JSONValue]]
  /// The line exactly as received, without its `\n`.
  public let line: String

  init(_ object: JSONObject, line: String) throws(ClientError) {
    session = try object.string("session")
    seq = try object.int("seq")
    t = try object.double("t")
    progress = try object.double("progress")
    layers = try object.objects("layers").map(\.fields)
    self.line = line
  }
}

/// A `begin` event: a session started.
public struct BeginEvent: Sendable {
  /// The new session's id.
  public let session: String
  /// The animator that serves it.
  public let animator: String
  /// The transition's operation (`push`, `pop`, `present`, `dismiss`).
  public let operation: String
  /// The transition's duration in seconds.
  public let duration: Double
  /// The container's `[w, h]`: the size of the stage the frames are drawn in; nil from a
  /// daemon that does not send it.
  public let container: [Double]?
  /// This subscription's clock (`wall` or `virtual`), when the daemon says.
  public let clock: String?
  /// This subscription's frame rate, when the daemon says.
  public let fps: Double?
  /// Whether the session began waiting for interaction, when the daemon says.
  public let interactive: Bool?
  /// When the session began, in seconds on the daemon's monotonic clock (`CLOCK_MONOTONIC`):
  /// a wall frame shows at `start + t`. Nil from a daemon that does not send it.
  public let start: Double?
  /// The line exactly as received, without its `\n`.
  public let line: String

  init(_ object: JSONObject, line: String) throws(ClientError) {
    session = try object.string("session")
    animator = try object.string("animator")
    operation = try object.string("operation")
    duration = try object.double("duration")
    let size = object["container"]?.arrayValue?.compactMap(\.numberValue)
    container = size?.count == 2 ? size : nil
    clock = object["clock"]?.stringValue
    fps = object["fps"]?.numberValue
    interactive = object["interactive"]?.boolValue
    start = object["start"]?.numberValue
    self.line = line
  }
}

/// A `complete` event: a session ended. Never dropped for a slow reader.
public struct CompleteEvent: Sendable {
  /// The session that ended.
  public let session: String
  /// True when it reached its end, false when it was cancelled (its last frame then shows the
  /// initial state).
  public let finished: Bool
  /// The line exactly as received, without its `\n`.
  public let line: String

  init(_ object: JSONObject, line: String) throws(ClientError) {
    session = try object.string("session")
    finished = try object.bool("finished")
    self.line = line
  }
}
