import PluginLoader
import TransitionJSON
import TransitionKit

/// What the daemon asks the host to load: the search path, already resolved by the daemon,
/// the permission switch, the trusted owner (the daemon's uid, not the host's: the host may
/// run as `pluginUser`) and the libraries to skip (the payload of a ``HostMessage/Kind/scan``
/// message, as JSON).
public struct ScanRequest: Equatable, Sendable {
  public var configuration: PluginRegistry.Configuration
  /// Real paths of quarantined libraries: never opened.
  public var skip: [String]

  public init(configuration: PluginRegistry.Configuration, skip: [String]) {
    self.configuration = configuration
    self.skip = skip
  }

  /// The JSON payload.
  public var payload: [UInt8] {
    let path = configuration.searchPath
    let json = JSONValue.object([
      "configured": .array(path.configured.map(JSONValue.string)),
      "environment": .array(path.fromEnvironment.map(JSONValue.string)),
      "executableDirectory": path.executableDirectory.map(JSONValue.string) ?? .null,
      "allowInsecurePlugins": .bool(configuration.allowInsecurePlugins),
      "trustedUID": .number(Double(configuration.trustedUID)),
      "skip": .array(skip.map(JSONValue.string)),
      "animatorPaths": .array(configuration.animatorPaths.map(JSONValue.string)),
    ])
    return Array(json.serialized.utf8)
  }

  /// Decodes a payload.
  /// - Throws: `EngineError` naming the first bad field.
  public init(payload: [UInt8]) throws(EngineError) {
    let json: JSONValue
    do { json = try JSONValue(parsing: payload) } catch { throw EngineError(error) }
    let root = JSONField(json, path: "scan")
    func strings(_ key: String) throws(EngineError) -> [String] {
      var list: [String] = []
      for element in try root.required(key).elements() { list.append(try element.string()) }
      return list
    }
    let directoryField = try root.requiredOrNull("executableDirectory")
    let directory: String? =
      directoryField.value == .null ? nil : try directoryField.string()
    let uid = try root.required("trustedUID").number()
    guard uid >= 0, uid <= Double(UInt32.max), uid == uid.rounded() else {
      throw EngineError(.outOfRange, "scan.trustedUID must be a uid, got \(uid)")
    }
    self.init(
      configuration: PluginRegistry.Configuration(
        searchPath: PluginSearchPath(
          configured: try strings("configured"), fromEnvironment: try strings("environment"),
          executableDirectory: directory),
        allowInsecurePlugins: try root.required("allowInsecurePlugins").bool(),
        trustedUID: UInt32(uid), animatorPaths: try strings("animatorPaths")),
      skip: try strings("skip"))
  }
}
