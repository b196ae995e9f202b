import TransitionJSON
import TransitionWire

/// An interactive control of a running session, sent with ``DaemonClient/control(session:action:)``.
public enum ControlAction: Equatable, Sendable {
  /// Sets progress (op `update`) while the session is interactive.
  case update(progress: Double)
  /// Jumps to `progress` (op `seek`).
  case seek(progress: Double)
  /// Freezes the clock.
  case pause
  /// Restarts the clock.
  case resume
  /// Runs the transition backwards from where it is.
  case reverse
  /// Animates to the end; `velocity` in progress units per second.
  case finish(velocity: Double?)
  /// Animates back to the start; `velocity` in progress units per second.
  case cancel(velocity: Double?)

  /// The wire `op` of this action.
  public var op: Op {
    switch self {
    case .update: .update
    case .seek: .seek
    case .pause: .pause
    case .resume: .resume
    case .reverse: .reverse
    case .finish: .finish
    case .cancel: .cancel
    }
  }

  /// The request for `session`: ``fields(session:)`` and the `op`.
  public func request(session: String) -> [String: JSONValue] {
    fields(session: session).merging(["op": .string(op.rawValue)]) { _, op in op }
  }

  /// The members of the request besides `op`: `session`, and `progress` or `velocity`.
  public func fields(session: String) -> [String: JSONValue] {
    var request: [String: JSONValue] = ["session": .string(session)]
    switch self {
    case .update(let progress), .seek(let progress):
      request["progress"] = .number(progress)
    case .finish(let velocity?), .cancel(let velocity?):
      request["velocity"] = .number(velocity)
    case .pause, .resume, .reverse, .finish(nil), .cancel(nil):
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

  /// Reads the fields of a control reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    session = try object.string("session")
    state = try object.string("state")
    progress = try object.double("progress")
  }
}
