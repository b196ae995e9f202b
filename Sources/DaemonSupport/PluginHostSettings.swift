import Foundation
import Glibc
import PluginHost
import PluginLoader
import TransitionServer

/// Everything the daemon needs to start and supervise its plugin host, from the config.
public struct PluginHostSettings {
  /// The daemon's own executable, started as `transitiond plugin-host`.
  public var executable: String
  /// The account to become when the daemon runs as root, else nil.
  public var user: PluginUser?
  public var memoryBytes: Int
  public var cpuSeconds: Int
  /// What the supervisor's state machine works with: what the host scans, its deadlines,
  /// restart backoff and quarantine.
  public var supervision: HostSupervisor.Settings

  /// The settings of `config`; `pluginUser` is looked up only when running as root.
  /// - Throws: ``ConfigError`` when `pluginUser` names no user.
  public init(config: DaemonConfig, executable: String, file: String?) throws(ConfigError) {
    self.executable = executable
    user = geteuid() == 0 ? try PluginUser.resolve(named: config.pluginUser, file: file) : nil
    let limits = config.limits
    memoryBytes = limits.pluginMemoryBytes
    cpuSeconds = limits.pluginCPUSeconds
    supervision = HostSupervisor.Settings(
      // The daemon's uid is trusted to own plugins, not the host's (docs/security.md).
      registry: PluginRegistry.Configuration(
        searchPath: Self.searchPath(config), allowInsecurePlugins: config.allowInsecurePlugins,
        trustedUID: geteuid(), animatorPaths: Self.animatorPaths(config)),
      callTimeout: Double(limits.pluginCallTimeoutMs) / 1000 * Self.sanitizerSlowdown,
      loadTimeout: Double(limits.pluginLoadTimeoutMs) / 1000 * Self.sanitizerSlowdown,
      maxTimelineBytes: limits.maxTimelineBytes,
      initialBackoff: Double(limits.pluginRestartBackoffMs) / 1000,
      maximumBackoff:
        Double(max(limits.pluginRestartBackoffMaxMs, limits.pluginRestartBackoffMs)) / 1000,
      quarantineStrikes: limits.pluginQuarantineStrikes)
  }

  /// How much longer the plugin host's deadlines are in a sanitizer build (`make sanitize`,
  /// `-DSANITIZED`, docs/security.md "Sanitizers"): instrumented code runs several times
  /// slower, and a data animator that answers in time in the plain build would miss the
  /// deadline there for no fault of its own. 1 in every other build.
  #if SANITIZED
    public static let sanitizerSlowdown = 8.0
  #else
    public static let sanitizerSlowdown = 1.0
  #endif

  /// The host's sandbox for a daemon of pid `parent`.
  public func sandbox(parent: Int32) -> HostSandbox {
    HostSandbox(
      parentPID: parent, user: user.map { ($0.uid, $0.gid) }, memoryBytes: memoryBytes,
      cpuSeconds: cpuSeconds)
  }

  /// The host's environment: the daemon's, without what only the daemon may use (systemd's
  /// notification socket and passed descriptors) or what the daemon already resolved.
  public static func hostEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in [
      "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC",
      "WATCHDOG_PID",
    ] {
      environment[key] = nil
    }
    return environment
  }

  /// The plugin search path: the config's (or `--plugin-path`) entries, then
  /// `TRANSITIOND_PLUGIN_PATH`, then the installed layout's `<prefix>/lib/transitiond/plugins`
  /// when it exists, then the executable's own directory (a `swift build`).
  private static func searchPath(_ config: DaemonConfig) -> PluginSearchPath {
    var searchPath = PluginSearchPath(configured: config.pluginPaths.map(absolute))
    let installed = InstalledLayout.running.pluginDirectory
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: installed, isDirectory: &isDirectory),
      isDirectory.boolValue, !searchPath.entries.contains(installed)
    {
      searchPath.fromEnvironment.append(installed)
    }
    return searchPath
  }

  /// The data animator directories: the config's (or `--animator-path`) entries, else the
  /// installed `<prefix>/share/transitiond/animators` and, for a daemon run from a checkout's
  /// build, the checkout's `config/animators`.
  static func animatorPaths(_ config: DaemonConfig) -> [String] {
    if let paths = config.animatorPaths { return paths.map(absolute) }
    let layout = InstalledLayout.running
    return [layout.animatorDirectory] + (layout.checkoutAnimatorDirectory.map { [$0] } ?? [])
  }

  /// A search path entry made absolute against the daemon's working directory (the host
  /// may not be able to enter it).
  private static func absolute(_ path: String) -> String {
    path.hasPrefix("/")
      ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
  }
}
