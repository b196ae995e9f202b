import BuiltinAnimators
import DaemonSupport
import Foundation
import Glibc
import LibeventLoop
import PluginHost
import PluginLoader
import PluginValues
import TransitionKit
import TransitionServer
import TransitionViewer
import TransitionWire
import UnixDaemon

/// The config file read and its admin rule resolved, at start-up and on reload.
extension Daemon {
  /// The daemon's own executable (symlinks resolved at start-up), which the plugin host runs.
  static let executablePath: String = {
    guard let resolved = realpath("/proc/self/exe", nil) else { return CommandLine.arguments[0] }
    defer { free(resolved) }
    return String(cString: resolved)
  }()

  /// The config file (or the built-in defaults) with what start-up and reload derive from it:
  /// the admin rule and the plugin host's settings.
  ///
  /// - Throws: ``ConfigError`` naming the file and key of the first problem.
  static func readConfiguration(_ options: DaemonOptions) throws(ConfigError)
    -> (DaemonConfig, AdminPolicy, PluginHostSettings)
  {
    let config = try options.effectiveConfig()
    let adminPolicy = try adminPolicy(for: config, file: options.configPath)
    let settings = try PluginHostSettings(
      config: config, executable: executablePath, file: options.configPath)
    return (config, adminPolicy, settings)
  }

  /// The admin rule of `config`, with its `adminGroup` looked up now.
  ///
  /// - Throws: ``ConfigError`` when `adminGroup` names no group.
  static func adminPolicy(for config: DaemonConfig, file: String?) throws(ConfigError)
    -> AdminPolicy
  {
    var group: AdminGroup?
    if !config.adminGroup.isEmpty {
      group = AdminGroup.resolve(named: config.adminGroup)
      guard group != nil else {
        throw ConfigError(file: file, "adminGroup names no group: \"\(config.adminGroup)\"")
      }
    }
    return AdminPolicy(daemonUID: getuid(), group: group)
  }
}
