/// One running session, as listed by `sessions`.
public struct SessionInfo: Equatable, Sendable {
  /// The session's id.
  public let session: String
  /// The animator serving it.
  public let animator: String
  /// The transition's operation.
  public let operation: String
  /// The clock state: `running`, `paused`, `interactive`, `finishing`, `cancelling` or
  /// `completed`.
  public let state: String
  /// Progress in [0, 1].
  public let progress: Double
  /// The transition's duration in seconds.
  public let duration: Double
  /// Session time in seconds.
  public let t: Double
  /// Whether the session was begun interactive.
  public let interactive: Bool
  /// The number of subscriptions watching it.
  public let subscribers: Int

  /// Reads one entry of a `sessions` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ object: JSONObject) throws(ClientError) {
    session = try object.string("session")
    animator = try object.string("animator")
    operation = try object.string("operation")
    state = try object.string("state")
    progress = try object.double("progress")
    duration = try object.double("duration")
    t = try object.double("t")
    interactive = try object.bool("interactive")
    subscribers = try object.int("subscribers")
  }

  /// Reads every entry of a `sessions` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public static func list(_ reply: Reply) throws(ClientError) -> [SessionInfo] {
    var sessions: [SessionInfo] = []
    for entry in try reply.object.objects("sessions") {
      sessions.append(try SessionInfo(entry))
    }
    return sessions
  }
}
