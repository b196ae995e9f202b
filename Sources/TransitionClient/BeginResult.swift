/// The reply to `begin`: the new session and the animator that actually serves it.
public struct BeginResult: Equatable, Sendable {
  /// The session's id (`s1`, or the id the request chose).
  public let session: String
  /// The animator actually used.
  public let animator: String
  /// The transition's duration in seconds.
  public let duration: Double
  /// True when the routed animator declined and `default-slide` served the transition.
  public let fallback: Bool
  /// The number of layers in the timeline, when the daemon reports it.
  public let layers: Int?
  /// When the session began, in seconds on the daemon's monotonic clock (`CLOCK_MONOTONIC`):
  /// a wall frame shows at `start + t`. Nil from a daemon that does not send it.
  public let start: Double?

  /// Reads the fields of a `begin` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    session = try object.string("session")
    animator = try object.string("animator")
    duration = try object.double("duration")
    fallback = object["fallback"]?.boolValue ?? false
    layers = object["layers"]?.numberValue.flatMap { Int(exactly: $0) }
    start = object["start"]?.numberValue
  }
}

/// The clock a subscription's frames follow.
public enum SubscriptionClock: String, Sendable {
  /// Frames paced by the daemon's monotonic clock.
  case wall
  /// Every frame at t = k / fps from 0 to the end, as fast as the subscriber reads.
  case virtual
}
