import TransitionJSON
import TransitionWire

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
    var applier = FrameDeltaApplier()
    try self.init(fields: fields, line: line, applier: &applier)
  }

  /// Decodes an event, rebuilding a delta subscription's frame with `applier` (which keeps
  /// each session's last full frame between calls; a `complete` makes it forget the session).
  ///
  /// - Throws: ``ClientError/Code/malformed`` also for a delta frame that cannot be applied
  ///   (one before any key frame of its session).
  public init(
    fields: [String: JSONValue], line: String, applier: inout FrameDeltaApplier
  ) throws(ClientError) {
    let object = JSONObject(fields, context: "event")
    let name = try object.string("event")
    switch name {
    case "frame" where FrameDeltaApplier.isDeltaSubscriptionFrame(fields):
      // A frame of a delta subscription.
      let full: [String: JSONValue]
      do {
        full = try applier.apply(fields)
      } catch {
        throw ClientError(.malformed, "the daemon sent a frame that cannot be applied: \(error)")
      }
      self = .frame(
        try FrameEvent(full: full, key: FrameDeltaApplier.isKeyFrame(fields), line: line))
    case "frame":
      _ = try? applier.apply(fields)
      self = .frame(try FrameEvent(object, line: line))
    case "complete":
      let complete = try CompleteEvent(object, line: line)
      applier.completed(session: complete.session)
      self = .complete(complete)
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
  /// Every layer of the frame, as decoded objects (`id`, `frame`, `transform`, …): for a
  /// frame of a delta subscription, the full frame the client rebuilt from it.
  public let layers: [[String: JSONValue]]
  /// For a frame of a delta subscription, whether it arrived as a key frame (true) or as a
  /// delta (false); nil for a frame of a full subscription.
  public let key: Bool?
  /// The full frame's members (a delta subscription's frame rebuilt, without `key` and
  /// `removed`): what a full subscription to the session gets.
  public let fields: [String: JSONValue]
  /// The line exactly as received, without its `\n` (a delta, for a delta frame).
  public let line: String

  init(_ object: JSONObject, line: String) throws(ClientError) {
    session = try object.string("session")
    seq = try object.int("seq")
    t = try object.double("t")
    progress = try object.double("progress")
    layers = try object.objects("layers").map(\.fields)
    key = nil
    fields = object.fields
    self.line = line
  }

  /// A frame of a delta subscription: `full` is the frame rebuilt from it (``FrameDeltaApplier``).
  init(full: [String: JSONValue], key: Bool, line: String) throws(ClientError) {
    let object = JSONObject(full, context: "event")
    session = try object.string("session")
    seq = try object.int("seq")
    t = try object.double("t")
    progress = try object.double("progress")
    layers = try object.objects("layers").map(\.fields)
    self.key = key
    fields = full
    self.line = line
  }

  /// The full frame as one line of JSON, without its `\n`: the line itself for a frame of a
  /// full subscription or a key frame, otherwise the rebuilt frame written out (keys sorted).
  public var fullLine: String {
    guard key == false else { return line }
    return JSONValue.object(fields).serialized
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
  /// This subscription's encoding (`full` or `delta`), when the daemon says.
  public let encoding: String?
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
    encoding = object["encoding"]?.stringValue
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
  /// initial state) or interrupted (its last frame then shows the layers as presented at the
  /// interruption).
  public let finished: Bool
  /// The session that interrupted it (docs/protocol.md, "Interruption"); nil otherwise.
  public let interruptedBy: String?
  /// The line exactly as received, without its `\n`.
  public let line: String

  init(_ object: JSONObject, line: String) throws(ClientError) {
    session = try object.string("session")
    finished = try object.bool("finished")
    interruptedBy = object["interruptedBy"] == nil ? nil : try object.string("interruptedBy")
    self.line = line
  }
}
