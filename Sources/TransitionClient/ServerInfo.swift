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

  /// Reads the fields of a `hello` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    server = try object.string("server")
    version = try object.string("version")
    protocolVersion = try object.int("protocol")
    pid = try object.int("pid")
    viewer = object["viewer"]?.stringValue
  }
}
