/// The reply to `begin`: the new session and the animator that actually serves it.
public struct BeginResult: Equatable, Sendable {
  /// The session's id (`s1`, or the id the request chose).
  public let session: String
  /// The animator actually used.
  public let animator: String
  /// The transition's duration in seconds.
  public let duration: Double
  /// True when the chosen animator did not serve the transition and `default-slide` did.
  public let fallback: Bool
  /// Why, when ``fallback`` is true: `declined`, `failed`, `malformed`, `overlong`,
  /// `timeout`, `crashed`, `oversized`, `protocol`, `unavailable` or `quarantined`
  /// (docs/protocol.md, "begin").
  public let fallbackReason: String?
  /// What happened, one sentence naming the animator, when ``fallback`` is true.
  public let fallbackMessage: String?
  /// The number of layers in the timeline, when the daemon reports it.
  public let layers: Int?
  /// When the session began, in seconds on the daemon's monotonic clock (`CLOCK_MONOTONIC`):
  /// a wall frame shows at `start + t`. Nil from a daemon that does not send it.
  public let start: Double?
  /// Whether the reduced form played (the reply's `motion` is `reduced`); false from a daemon
  /// that does not say.
  public let reducedMotion: Bool

  /// Reads the fields of a `begin` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    session = try object.string("session")
    animator = try object.string("animator")
    duration = try object.double("duration")
    fallback = object["fallback"]?.boolValue ?? false
    fallbackReason = object["fallbackReason"]?.stringValue
    fallbackMessage = object["fallbackMessage"]?.stringValue
    layers = object["layers"]?.numberValue.flatMap { Int(exactly: $0) }
    start = object["start"]?.numberValue
    reducedMotion = object["motion"]?.stringValue == "reduced"
  }
}

/// The clock a subscription's frames follow.
public enum SubscriptionClock: String, Sendable {
  /// Frames paced by the daemon's monotonic clock.
  case wall
  /// Every frame at t = k / fps from 0 to the end, as fast as the subscriber reads.
  case virtual
}
