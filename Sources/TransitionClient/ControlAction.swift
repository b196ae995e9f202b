import TransitionJSON
import TransitionWire

/// A point in container points (`touch`) or points per second (`touchVelocity`).
public struct TouchPoint: Equatable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  var json: JSONValue { .array([.number(x), .number(y)]) }
}

/// An interactive control of a running session, sent with ``DaemonClient/control(session:action:)``.
public enum ControlAction: Equatable, Sendable {
  /// Sets progress (op `update`) while the session is interactive.
  case update(progress: Double)
  /// Moves the finger to `touch` (op `update`): an animator that follows a finger sets
  /// progress from the drag, unless `progress` is given too.
  case touch(TouchPoint, progress: Double? = nil)
  /// Jumps to `progress` (op `seek`).
  case seek(progress: Double)
  /// Freezes the clock.
  case pause
  /// Restarts the clock.
  case resume
  /// Runs the transition backwards from where it is.
  case reverse
  /// Animates to the end; `velocity` in progress units per second, `touchVelocity` the
  /// finger's in points per second.
  case finish(velocity: Double?, touchVelocity: TouchPoint? = nil)
  /// Animates back to the start; `velocity` and `touchVelocity` as for `finish`.
  case cancel(velocity: Double?, touchVelocity: TouchPoint? = nil)
  /// Lets go of the finger at `touchVelocity` (op `release`): the daemon finishes or cancels
  /// by the release rule (velocity first, then progress); the reply's `state` says which.
  case release(touchVelocity: TouchPoint)

  /// The wire `op` of this action.
  public var op: Op {
    switch self {
    case .update, .touch: .update
    case .seek: .seek
    case .pause: .pause
    case .resume: .resume
    case .reverse: .reverse
    case .finish: .finish
    case .cancel: .cancel
    case .release: .release
    }
  }

  /// The request for `session`: ``fields(session:)`` and the `op`.
  public func request(session: String) -> [String: JSONValue] {
    fields(session: session).merging(["op": .string(op.rawValue)]) { _, op in op }
  }

  /// The members of the request besides `op`: `session`, and `progress`, `touch`,
  /// `velocity` or `touchVelocity`.
  public func fields(session: String) -> [String: JSONValue] {
    var request: [String: JSONValue] = ["session": .string(session)]
    switch self {
    case .update(let progress), .seek(let progress):
      request["progress"] = .number(progress)
    case .touch(let touch, let progress):
      request["touch"] = touch.json
      if let progress { request["progress"] = .number(progress) }
    case .finish(let velocity, let touchVelocity), .cancel(let velocity, let touchVelocity):
      if let velocity { request["velocity"] = .number(velocity) }
      if let touchVelocity { request["touchVelocity"] = touchVelocity.json }
    case .release(let touchVelocity):
      request["touchVelocity"] = touchVelocity.json
    case .pause, .resume, .reverse:
      break
    }
    return request
  }
}

/// The reply to a control op: the session's state and progress after it.
public struct ControlResult: Equatable, Sendable {
  /// The session's id.
  public let session: String
  /// The clock state after the action.
  public let state: String
  /// Progress after the action.
  public let progress: Double
  /// For `update`: what set the progress, `touch` or `progress` (nil from a daemon that does
  /// not say).
  public let followed: String?

  /// Reads the fields of a control reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    session = try object.string("session")
    state = try object.string("state")
    progress = try object.double("progress")
    followed = object["followed"]?.stringValue
  }
}
