/// The HTTP listener's settings (config object `http`, docs/config.md): off unless `listen`
/// names a loopback address, and bounded in connections, header bytes and idle time.
public struct HTTPSettings: Equatable, Sendable {
  /// Where to listen; nil (`listen` absent or empty) means no HTTP listener.
  public var listen: HTTPListenAddress?
  /// The most HTTP connections served at once (event streams included); a request on one
  /// more connection gets 503 and the connection is closed. Default 16.
  public var maxConnections = 16
  /// The most bytes of a request's line and headers; more gets 431 / 400 and a close.
  /// Default 8192.
  public var maxHeaderBytes = 8192
  /// Seconds a connection may stay silent while the daemon waits for a request (or a write
  /// may wait on a reader that does not read) before it is closed. Default 30. Event streams
  /// carry a comment line every ``keepAliveSeconds`` so that a live stream is never idle.
  public var timeoutSeconds = 30.0
  /// A directory of pictures (the `content.image` files of the sessions drawn) that the
  /// listener serves read-only at `/images/NAME`, behind the same token; nil serves none.
  /// A relative path in the config file is taken from the file's directory. Only plain files directly inside it whose names are
  /// ``ViewerRequest/isServableImageName(_:)`` are served, never through a symbolic link.
  public var images: String?

  public init() {}

  /// Seconds between the `:` comment lines that keep an idle event stream moving: a third of
  /// the timeout, at most 15.
  public var keepAliveSeconds: Double { min(timeoutSeconds / 3, 15) }
}
