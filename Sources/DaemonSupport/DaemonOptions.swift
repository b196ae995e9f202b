import TransitionServer

/// What the command line asks of the daemon; each value given overrides the config file's.
public struct DaemonOptions: Equatable, Sendable {
  /// The config file; nil runs on the built-in defaults.
  public var configPath: String?
  /// `--socket PATH`: overrides the config's `socket`.
  public var socketPath: String?
  /// `--plugin-path DIR` (repeatable): replaces the config's `pluginPaths` when not empty.
  public var pluginPaths: [String]
  /// `--animator-path DIR` (repeatable): replaces the config's `animatorPaths` when not empty.
  public var animatorPaths: [String]
  /// `--log-level LEVEL`: overrides the config's `logLevel`.
  public var logLevel: LogLevel?
  /// `--viewer ADDRESS`: turns the HTTP viewer on at ADDRESS (loopback), overriding the
  /// config's `http.listen`.
  public var viewerListen: HTTPListenAddress?
  /// `--viewer-images DIR`: the pictures the viewer serves, overriding `http.images`.
  public var viewerImages: String?

  public init(
    configPath: String? = nil, socketPath: String? = nil, pluginPaths: [String] = [],
    animatorPaths: [String] = [], logLevel: LogLevel? = nil,
    viewerListen: HTTPListenAddress? = nil, viewerImages: String? = nil
  ) {
    self.configPath = configPath
    self.socketPath = socketPath
    self.pluginPaths = pluginPaths
    self.animatorPaths = animatorPaths
    self.logLevel = logLevel
    self.viewerListen = viewerListen
    self.viewerImages = viewerImages
  }

  /// The configuration in force: the file's (or the defaults), with these overrides applied.
  ///
  /// - Throws: ``ConfigError`` when the file cannot be read or is invalid.
  public func effectiveConfig() throws(ConfigError) -> DaemonConfig {
    var config =
      try configPath.map { path throws(ConfigError) in
        try DaemonConfig(contentsOf: path)
      } ?? DaemonConfig()
    if let socketPath { config.socket = socketPath }
    if !pluginPaths.isEmpty { config.pluginPaths = pluginPaths }
    if !animatorPaths.isEmpty { config.animatorPaths = animatorPaths }
    if let logLevel { config.logLevel = logLevel }
    if let viewerListen { config.http.listen = viewerListen }
    if let viewerImages { config.http.images = viewerImages }
    return config
  }
}
