import Foundation
import TransitionJSON
import TransitionKit
import TransitionServer
import TransitionWire

/// The daemon's configuration file (`config/transitiond.json`, documented in docs/config.md):
/// what the server core works by (``server``) and what only the daemon uses (the socket, the
/// plugins, the admin group, the plugin host's user, the HTTP listener).
///
/// Every key is optional and has a default; an unknown key is refused, naming it, so a typo
/// never passes silently. Decoding errors name the key path (`limits.maxClients`). The core's
/// settings read through as members of their own (`config.limits`, `config.routes`).
@dynamicMemberLookup
public struct DaemonConfig: Equatable, Sendable {
  /// What the server core works by: routes, `defaultFps`, `logLevel`, `limits`.
  public var server = ServerConfig()
  /// The socket path; empty means the default of `SocketPath.resolve(environment:uid:)`.
  public var socket = ""
  /// The socket file's permission bits. Default 0o600 (the owner only).
  public var socketMode: UInt32 = 0o600
  /// Plugin files or directories searched before `TRANSITIOND_PLUGIN_PATH` and the
  /// executable's directory. Relative entries are resolved against the config file's
  /// directory.
  public var pluginPaths: [String] = []
  /// Directories of data animators (`<name>.json`, docs/animators.md), watched for changes;
  /// nil for the default (the installed `share/transitiond/animators`, and a checkout's
  /// `config/animators` when the daemon runs from its build). Relative entries are resolved
  /// against the config file's directory.
  public var animatorPaths: [String]? = nil
  /// Load plugins even when their file or a directory above it is owned by another user than
  /// root or the daemon's, or writable by group or others.
  public var allowInsecurePlugins = false
  /// A group whose members may use admin ops, besides root and the daemon's own user;
  /// empty for none.
  public var adminGroup = ""
  /// The user the plugin host process runs as when the daemon runs as root. Default `nobody`.
  public var pluginUser = "nobody"
  /// The HTTP listener for the viewer; off by default.
  public var http = HTTPSettings()

  public init() {}

  /// A setting of the core (``server``), read and written as the config's own.
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ServerConfig, Value>) -> Value {
    get { server[keyPath: keyPath] }
    set { server[keyPath: keyPath] = newValue }
  }

  private static let topLevelKeys: Set<String> = [
    "socket", "socketMode", "pluginPaths", "animatorPaths", "allowInsecurePlugins", "routes",
    "defaultFps", "reduceMotion", "reducedMotionDuration", "pacingLead",
    "logLevel", "adminGroup", "pluginUser", "limits", "http",
  ]
  private static let httpKeys: Set<String> = [
    "listen", "maxConnections", "maxHeaderBytes", "timeoutSeconds", "images",
  ]
  private static let limitKeys: Set<String> = [
    "maxLineBytes", "maxClients", "maxClientsPerUser", "partialLineSeconds", "maxSessions",
    "maxSessionsPerClient", "maxSessionsPerUser", "maxSessionSeconds", "maxSubscriptionsPerClient",
    "maxLayersPerContext", "subscriberSoftLimitBytes", "subscriberHardLimitBytes",
    "subscriberSoftLimitSeconds", "pluginCallTimeoutMs", "pluginLoadTimeoutMs",
    "maxTimelineBytes", "pluginMemoryBytes", "pluginCPUSeconds", "pluginRestartBackoffMs",
    "pluginRestartBackoffMaxMs", "pluginQuarantineStrikes",
  ]

  /// Reads and validates a config file.
  ///
  /// - Parameter path: The file to read; relative `pluginPaths` entries are resolved against
  ///   its directory.
  /// - Throws: ``ConfigError`` naming the file and the offending key.
  public init(contentsOf path: String) throws(ConfigError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigError(file: path, "cannot be read")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: Array(data))
    } catch {
      throw ConfigError(file: path, "is not valid JSON: \(error.message)")
    }
    do {
      try self.init(json: json, baseDirectory: (path as NSString).deletingLastPathComponent)
    } catch {
      throw ConfigError(file: path, error.message)
    }
  }

  /// Decodes and validates a configuration from JSON.
  ///
  /// - Parameters:
  ///   - json: The configuration object.
  ///   - baseDirectory: The directory relative plugin paths are resolved against.
  /// - Throws: ``ConfigError`` (without a file) naming the key.
  public init(json: JSONValue, baseDirectory: String) throws(ConfigError) {
    do {
      try self.init(decoding: JSONField(json, path: ""), baseDirectory: baseDirectory)
    } catch {
      throw ConfigError(file: nil, error.message)
    }
  }

  /// A list of paths, each made absolute against `baseDirectory`.
  private static func paths(_ field: JSONField, baseDirectory: String) throws(EngineError)
    -> [String]
  {
    try field.elements().map { element throws(EngineError) in
      let entry = try element.string()
      guard !entry.isEmpty else {
        throw EngineError(.empty, "\(element.path) must not be empty")
      }
      return entry.hasPrefix("/") || baseDirectory.isEmpty
        ? entry : (baseDirectory as NSString).appendingPathComponent(entry)
    }
  }

  private init(decoding root: JSONField, baseDirectory: String) throws(EngineError) {
    guard root.value.objectValue != nil else {
      throw EngineError(.invalidValue, "the configuration must be a JSON object")
    }
    try root.allowOnly(Self.topLevelKeys)
    if let field = try root.optional("socket") { socket = try field.string() }
    if let field = try root.optional("socketMode") { socketMode = try Self.mode(field) }
    if let field = try root.optional("pluginPaths") {
      pluginPaths = try Self.paths(field, baseDirectory: baseDirectory)
    }
    if let field = try root.optional("animatorPaths") {
      animatorPaths = try Self.paths(field, baseDirectory: baseDirectory)
    }
    if let field = try root.optional("allowInsecurePlugins") {
      allowInsecurePlugins = try field.bool()
    }
    if let field = try root.optional("routes") { server.routes = try Self.routes(field) }
    if let field = try root.optional("defaultFps") {
      server.defaultFps = try field.number()
      try EngineError.require(server.defaultFps, in: ServerConfig.fpsRange, field.path)
    }
    if let field = try root.optional("reduceMotion") { server.reduceMotion = try field.bool() }
    if let field = try root.optional("reducedMotionDuration") {
      server.reducedMotionDuration = try field.number()
      try EngineError.require(
        server.reducedMotionDuration, in: ServerConfig.reducedMotionDurationRange, field.path)
    }
    if let field = try root.optional("pacingLead") {
      server.pacingLead = try field.number()
      try EngineError.require(server.pacingLead, in: ServerConfig.pacingLeadRange, field.path)
    }
    if let field = try root.optional("logLevel") { server.logLevel = try Self.logLevel(field) }
    if let field = try root.optional("adminGroup") { adminGroup = try field.string() }
    if let field = try root.optional("pluginUser") {
      pluginUser = try field.string()
      guard !pluginUser.isEmpty else {
        throw EngineError(.empty, "\(field.path) must name a user")
      }
    }
    if let field = try root.optional("limits") { server.limits = try Self.limits(field) }
    if let field = try root.optional("http") {
      http = try Self.http(field)
      if let images = http.images, !images.hasPrefix("/"), !baseDirectory.isEmpty {
        http.images = (baseDirectory as NSString).appendingPathComponent(images)
      }
    }
  }

  private static func http(_ field: JSONField) throws(EngineError) -> HTTPSettings {
    guard field.value.objectValue != nil else {
      throw EngineError(.invalidValue, "\(field.path) must be an object")
    }
    try field.allowOnly(httpKeys)
    var http = HTTPSettings()
    if let member = try field.optional("listen") {
      let text = try member.string()
      if !text.isEmpty {
        guard let address = HTTPListenAddress(text) else {
          throw EngineError(
            .invalidValue,
            "\(member.path) must be a loopback address and port such as \"127.0.0.1:7878\" "
              + "or \"[::1]:7878\" (the viewer is for this machine only), got \"\(text)\"")
        }
        http.listen = address
      }
    }
    func integer(_ key: String, in range: ClosedRange<Int>) throws(EngineError) -> Int? {
      guard let member = try field.optional(key) else { return nil }
      let number = try member.number()
      guard number == number.rounded(), number >= Double(range.lowerBound),
        number <= Double(range.upperBound)
      else {
        throw EngineError(
          .outOfRange,
          "\(member.path) must be an integer in [\(range.lowerBound), \(range.upperBound)], "
            + "got \(number)")
      }
      return Int(number)
    }
    if let value = try integer("maxConnections", in: 1...4096) { http.maxConnections = value }
    if let value = try integer("maxHeaderBytes", in: 1024...1_048_576) {
      http.maxHeaderBytes = value
    }
    if let member = try field.optional("timeoutSeconds") {
      let seconds = try member.number()
      guard seconds >= 1, seconds <= 86_400 else {
        throw EngineError(
          .outOfRange, "\(member.path) must be a number of seconds in [1, 86400], got \(seconds)")
      }
      http.timeoutSeconds = seconds
    }
    if let member = try field.optional("images") {
      let path = try member.string()
      if !path.isEmpty { http.images = path }
    }
    return http
  }

  /// A mode written as an octal string such as `"0600"` or `"660"`.
  private static func mode(_ field: JSONField) throws(EngineError) -> UInt32 {
    let text = try field.string()
    guard !text.isEmpty, text.count <= 4, let mode = UInt32(text, radix: 8), mode <= 0o777 else {
      throw EngineError(
        .invalidValue, "\(field.path) must be an octal string such as \"0600\", got \"\(text)\"")
    }
    return mode
  }

  /// Reads a log level name.
  static func logLevel(_ field: JSONField) throws(EngineError) -> LogLevel {
    let name = try field.string()
    guard let level = LogLevel(name: name) else {
      throw EngineError(
        .invalidValue, "\(field.path) must be one of error, warn, info, debug, got \"\(name)\"")
    }
    return level
  }

  private static func routes(_ field: JSONField) throws(EngineError) -> [TransitionOperation:
    String]
  {
    guard let members = field.value.objectValue else {
      throw EngineError(.invalidValue, "\(field.path) must be an object")
    }
    var routes = ServerConfig.defaultRoutes
    for key in members.keys.sorted() {
      guard let operation = TransitionOperation(rawValue: key) else {
        throw EngineError(
          .invalidValue,
          "\(field.path).\(key) is not an operation (push, pop, present, dismiss)")
      }
      let animator = try field.required(key).string()
      guard !animator.isEmpty else {
        throw EngineError(.empty, "\(field.path).\(key) must name an animator")
      }
      routes[operation] = animator
    }
    return routes
  }

  private static func limits(_ field: JSONField) throws(EngineError) -> ServerLimits {
    try field.allowOnly(limitKeys)
    var limits = ServerLimits()
    func integer(_ key: String, minimum: Int = 1) throws(EngineError) -> Int? {
      guard let member = try field.optional(key) else { return nil }
      let number = try member.number()
      guard number == number.rounded(), number >= Double(minimum), number <= 1e15 else {
        throw EngineError(
          .outOfRange, "\(member.path) must be an integer of at least \(minimum), got \(number)")
      }
      return Int(number)
    }
    func positiveSeconds(_ key: String) throws(EngineError) -> Double? {
      guard let member = try field.optional(key) else { return nil }
      let seconds = try member.number()
      guard seconds > 0, seconds <= 1e9 else {
        throw EngineError(
          .outOfRange, "\(member.path) must be a number of seconds in (0, 1e9], got \(seconds)")
      }
      return seconds
    }
    if let value = try integer("maxLineBytes", minimum: 256) { limits.maxLineBytes = value }
    if let value = try integer("maxClients") { limits.maxClients = value }
    if let value = try integer("maxClientsPerUser") { limits.maxClientsPerUser = value }
    if let value = try positiveSeconds("partialLineSeconds") { limits.partialLineSeconds = value }
    if let value = try integer("maxSessions") { limits.maxSessions = value }
    if let value = try integer("maxSessionsPerClient") { limits.maxSessionsPerClient = value }
    if let value = try integer("maxSessionsPerUser") { limits.maxSessionsPerUser = value }
    if let value = try positiveSeconds("maxSessionSeconds") { limits.maxSessionSeconds = value }
    if let value = try integer("maxSubscriptionsPerClient") {
      limits.maxSubscriptionsPerClient = value
    }
    if let value = try integer("maxLayersPerContext") { limits.maxLayersPerContext = value }
    if let value = try integer("subscriberSoftLimitBytes") {
      limits.subscriberSoftLimitBytes = value
    }
    if let value = try integer("subscriberHardLimitBytes") {
      limits.subscriberHardLimitBytes = value
    }
    if let value = try integer("pluginCallTimeoutMs") { limits.pluginCallTimeoutMs = value }
    if let value = try integer("pluginLoadTimeoutMs") { limits.pluginLoadTimeoutMs = value }
    if let value = try integer("maxTimelineBytes", minimum: 1024) {
      limits.maxTimelineBytes = value
    }
    if let value = try integer("pluginMemoryBytes", minimum: 64 << 20) {
      limits.pluginMemoryBytes = value
    }
    if let value = try integer("pluginCPUSeconds") { limits.pluginCPUSeconds = value }
    if let value = try integer("pluginRestartBackoffMs") { limits.pluginRestartBackoffMs = value }
    if let value = try integer("pluginRestartBackoffMaxMs") {
      limits.pluginRestartBackoffMaxMs = value
    }
    if let value = try integer("pluginQuarantineStrikes") {
      limits.pluginQuarantineStrikes = value
    }
    if let member = try field.optional("subscriberSoftLimitSeconds") {
      let seconds = try member.number()
      guard seconds >= 0 else {
        throw EngineError(.outOfRange, "\(member.path) must not be negative, got \(seconds)")
      }
      limits.subscriberSoftLimitSeconds = seconds
    }
    guard limits.subscriberSoftLimitBytes <= limits.subscriberHardLimitBytes else {
      throw EngineError(
        .outOfRange,
        "\(field.path).subscriberSoftLimitBytes (\(limits.subscriberSoftLimitBytes)) must not "
          + "exceed \(field.path).subscriberHardLimitBytes (\(limits.subscriberHardLimitBytes))")
    }
    return limits
  }
}
