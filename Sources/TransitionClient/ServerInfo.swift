import TransitionWire

/// The daemon's answer to `hello`: who it is and which protocol it speaks.
public struct ServerInfo: Equatable, Sendable {
  /// The server's name (`transitiond`).
  public let server: String
  /// The server's version string.
  public let version: String
  /// The wire protocol version (1).
  public let protocolVersion: Int
  /// The daemon's process id.
  public let pid: Int
  /// The URL of the daemon's viewer page, with its token, when its HTTP listener is on.
  public let viewer: String?
  /// The optional capabilities the daemon speaks (`Feature` raw values, and any a newer
  /// daemon adds); empty from a daemon that reports none.
  public let features: [String]

  /// Reads the fields of a `hello` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    server = try object.string("server")
    version = try object.string("version")
    protocolVersion = try object.int("protocol")
    pid = try object.int("pid")
    viewer = object["viewer"]?.stringValue
    features = object["features"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// Whether the daemon speaks `feature`.
  public func supports(_ feature: Feature) -> Bool {
    features.contains(feature.rawValue)
  }
}
