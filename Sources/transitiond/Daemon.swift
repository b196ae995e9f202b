import Foundation
import Glibc
import LibeventLoop
import PluginHost
import TransitionKit
import TransitionServer
import TransitionViewer
import TransitionWire

/// The transitiond daemon: the ``ServerCore`` on one libevent loop, with what connects it to
/// the system: the config and its reload, the socket's lock, the Unix listener, signals and
/// systemd (docs/architecture.md, "The daemon").
///
/// ```swift
/// let daemon = try Daemon(options: options)
/// try daemon.run()   // returns after SIGINT or SIGTERM, once clients are flushed
/// ```
///
/// Start-up: read the config, take the socket's lock (a second instance refuses to start; a
/// stale socket is replaced), load the plugins (none is a start-up failure), listen, watch
/// signals, tell systemd `READY=1`. SIGHUP and the `reload` op re-read the config and rescan
/// the plugins without touching sessions. SIGINT and SIGTERM stop accepting, send `stopping`
/// to every client, and end the loop when every socket has flushed and closed, or after
/// ``shutdownFlushSeconds`` (libevent's own loop exit); then the socket and the lock go.
final class Daemon {
  /// How long shutdown waits for clients to read what was queued for them.
  static let shutdownFlushSeconds = 2.0

  let options: DaemonOptions
  private(set) var config: ServerConfig
  /// The socket path in use (fixed at start-up).
  let socketPath: String
  let loop: EventLoop
  let logger: Logger
  let registry: PluginRegistry
  let core: ServerCore
  /// Every accepted connection until its socket closes (after any flush).
  private var peers: [UInt64: UnixPeer] = [:]
  private var isStopping = false
  private var lock: SocketLock?
  private var listener: UnixListener?
  private var viewer: ViewerListener?
  private var signals: SignalWatcher?
  private var watchdogTimer: LoopTimer?
  private let notifier = SystemdNotifier.fromEnvironment()

  /// Reads the configuration and prepares the loop and the core; nothing is bound yet.
  ///
  /// - Throws: ``StartupError`` for an unreadable or invalid config (naming the key) or a
  ///   loop that cannot be created.
  init(options: DaemonOptions) throws(StartupError) {
    self.options = options
    let config: ServerConfig
    let adminPolicy: AdminPolicy
    do {
      config = try options.effectiveConfig()
      adminPolicy = try Self.adminPolicy(for: config, file: options.configPath)
    } catch {
      throw StartupError(exitStatus: StartupError.configStatus, error.description)
    }
    self.config = config
    logger = Logger(level: config.logLevel)
    do {
      loop = try EventLoop()
    } catch {
      throw StartupError(
        exitStatus: StartupError.systemStatus, "cannot create the event loop: \(error)")
    }
    socketPath =
      config.socket.isEmpty
      ? SocketPath.resolve(environment: ProcessInfo.processInfo.environment) : config.socket
    registry = PluginRegistry(configuration: Self.pluginConfiguration(config))
    core = ServerCore(
      config: config, adminPolicy: adminPolicy,
      animators: InProcessAnimatorSource(registry: registry),
      clock: LoopClock(loop: loop, logger: logger), logger: logger)
    core.reloadHandler = { [unowned self] () throws(WireError) in try self.reload() }
  }

  /// Starts serving and runs the loop until SIGINT or SIGTERM (or a failure).
  ///
  /// - Throws: ``StartupError`` when another instance holds the socket, no animator plugin
  ///   loads, or the socket cannot be bound.
  func run() throws(StartupError) {
    let activated: Int32?
    do {
      activated = try SystemdListenFDs.take(environment: ProcessInfo.processInfo.environment)
    } catch {
      throw StartupError(exitStatus: StartupError.configStatus, error.description)
    }
    if let activated {
      try serve(adopting: activated)
      return
    }
    do {
      lock = try SocketLock(socketPath: socketPath)
    } catch let error as UnixSocketError {
      // In use: another instance serves the path. Otherwise the path itself is unusable.
      let status =
        error.code == .alreadyInUse ? StartupError.unavailableStatus : StartupError.configStatus
      throw StartupError(exitStatus: status, error.message)
    } catch {
      throw StartupError(
        exitStatus: StartupError.systemStatus, "cannot lock the socket \(socketPath): \(error)")
    }
    defer {
      lock?.release()
      lock = nil
    }
    try serve(adopting: nil)
  }

  /// Loads the plugins, listens (on `activated`, the socket systemd passed, or on a socket
  /// of its own at ``socketPath``) and runs the loop until a stop.
  private func serve(adopting activated: Int32?) throws(StartupError) {
    logger.info(
      options.configPath.map { "config: \($0)" } ?? "config: none found, built-in defaults")
    logPluginReport(registry.rescan())
    let animators = registry.animators
    guard !animators.isEmpty else {
      let searched = registry.configuration.searchPath.entries.joined(separator: ", ")
      throw StartupError(
        exitStatus: StartupError.unavailableStatus,
        "no animator plugins found (searched: \(searched.isEmpty ? "nothing" : searched))")
    }
    warnAboutRoutes()
    let listeningPath =
      activated.map { SystemdListenFDs.boundPath(of: $0) ?? "fd \($0)" } ?? socketPath
    do {
      if let activated {
        // systemd owns the socket file: it is neither bound, chmod'ed nor removed here.
        listener = try UnixListener(
          loop: loop, adoptingListeningSocket: activated, path: listeningPath
        ) { [unowned self] connection in
          self.accept(connection)
        }
      } else {
        listener = try UnixListener(
          loop: loop, path: socketPath, mode: mode_t(config.socketMode)
        ) { [unowned self] connection in
          self.accept(connection)
        }
      }
      // A parent may have left signals blocked (posix_spawn inherits the mask); the daemon
      // must see SIGINT, SIGTERM and SIGHUP.
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      pthread_sigmask(SIG_SETMASK, &unblocked, nil)
      signals = try SignalWatcher(loop: loop) { [unowned self] signal in
        self.handle(signal: signal)
      }
    } catch {
      listener?.close()
      throw StartupError(
        exitStatus: StartupError.systemStatus, "cannot listen on \(listeningPath): \(error)")
    }
    listener?.onAcceptError = { [unowned self] error in
      self.logger.warn("accepting a client failed: \(error)")
    }
    do {
      try startViewer()
    } catch {
      listener?.close()
      throw error
    }
    notify { try $0.notifyReady() }
    startWatchdog()
    logger.info(
      "listening on \(listeningPath)\(activated == nil ? "" : " (socket activation)") (pid "
        + "\(getpid()), \(animators.count) animators: "
        + animators.map(\.name).joined(separator: ", ") + ")")
    do {
      try loop.run()
    } catch {
      listener?.close()
      throw StartupError(exitStatus: StartupError.systemStatus, "the event loop failed: \(error)")
    }
    signals?.cancel()
    watchdogTimer?.cancel()
    viewer?.close()
    viewer = nil
    logger.info("stopped")
  }

  // MARK: Connections

  /// Starts the HTTP viewer listener when `http.listen` is set, and logs its URL.
  ///
  /// - Throws: ``StartupError`` when the address cannot be bound.
  private func startViewer() throws(StartupError) {
    guard let address = config.http.listen else { return }
    let pageDirectory = ViewerPage.directory(
      executableDirectory: InstalledLayout.running.executableDirectory)
    do {
      let viewer = try ViewerListener(
        address: address, settings: config.http, pageDirectory: pageDirectory, loop: loop,
        core: core, logger: logger)
      self.viewer = viewer
      core.viewerURL = viewer.url
      logger.info("viewer: \(viewer.url)")
      if pageDirectory == nil {
        logger.warn("the viewer page was not found; /events works, the page's files get 404")
      }
    } catch {
      throw StartupError(
        exitStatus: StartupError.systemStatus, "cannot listen on http.listen \(address): \(error)")
    }
  }

  private func accept(_ connection: Connection) {
    let peer = UnixPeer(connection: connection, core: core, limits: config.limits) {
      [unowned self] peer in self.socketClosed(peer)
    }
    peers[peer.id] = peer
    core.connect(peer)
  }

  private func socketClosed(_ peer: UnixPeer) {
    peers[peer.id] = nil
    if isStopping, peers.isEmpty { loop.stop() }
  }

  // MARK: Reload

  /// Re-reads the config file and rescans the plugins; sessions, clients and the socket stay.
  ///
  /// The socket path and mode are fixed at start-up (a change is logged and ignored). Routes
  /// are reset to the config's, so run-time `route` changes do not survive a reload; the
  /// admin group is looked up again.
  /// - Returns: The number of animators loaded after the rescan, and the rescan's warnings and
  ///   errors (a refused plugin, a loaded library changed on disk), which are logged too.
  /// - Throws: `WireError` `reload_failed` naming the reason; the old config stays in force.
  @discardableResult
  func reload() throws(WireError) -> ReloadOutcome {
    notify { try $0.notifyReloading() }
    defer { notify { try $0.notifyReady() } }
    var newConfig: ServerConfig
    let adminPolicy: AdminPolicy
    do {
      newConfig = try options.effectiveConfig()
      adminPolicy = try Self.adminPolicy(for: newConfig, file: options.configPath)
    } catch {
      logger.warn("reload refused, the previous config stays in force: \(error)")
      throw WireError(.reloadFailed, error.description)
    }
    if newConfig.socket != config.socket || newConfig.socketMode != config.socketMode {
      logger.warn("socket and socketMode changes take effect at the next start")
      newConfig.socket = config.socket
      newConfig.socketMode = config.socketMode
    }
    if newConfig.http != config.http {
      logger.warn("http changes take effect at the next start")
      newConfig.http = config.http
    }
    config = newConfig
    core.apply(config: newConfig, adminPolicy: adminPolicy)
    let report = registry.rescan(with: Self.pluginConfiguration(newConfig))
    logPluginReport(report)
    warnAboutRoutes()
    let count = registry.animators.count
    logger.info("reloaded the config: \(count) animators, \(core.sessionCount) sessions kept")
    return ReloadOutcome(animators: count, diagnostics: report.problems)
  }

  // MARK: Signals and shutdown

  private func handle(signal: Int32) {
    switch signal {
    case SIGHUP:
      logger.info("SIGHUP: reloading")
      _ = try? reload()
    default:
      shutDown(reason: signal == SIGINT ? "SIGINT" : "SIGTERM")
    }
  }

  /// Stops accepting and lets the core say `stopping` and close every peer after its output;
  /// the loop ends when the last socket has closed, or at the flush deadline.
  private func shutDown(reason: String) {
    guard !isStopping else { return }
    isStopping = true
    notify { try $0.notifyStopping() }
    listener?.close()
    listener = nil
    core.shutDown(reason: reason)
    if peers.isEmpty {
      loop.stop()
    } else {
      loop.stop(after: Self.shutdownFlushSeconds)
    }
  }

  // MARK: Helpers

  /// Pings systemd's watchdog from a loop timer at half of `WATCHDOG_USEC`, when the unit
  /// sets `WatchdogSec=` for this process: a loop that stops turning stops the pings.
  private func startWatchdog() {
    guard notifier.isEnabled,
      let interval = SystemdWatchdog.pingInterval(
        environment: ProcessInfo.processInfo.environment, pid: getpid())
    else { return }
    do {
      let timer = try LoopTimer(loop: loop) { [unowned self] in
        self.notify { try $0.notifyWatchdog() }
      }
      timer.scheduleRepeating(every: interval, startingAt: loop.now)
      watchdogTimer = timer
      logger.info("systemd watchdog: WATCHDOG=1 every \(interval) s")
    } catch {
      logger.warn("cannot start the systemd watchdog timer: \(error)")
    }
  }

  private func notify(_ send: (SystemdNotifier) throws -> Void) {
    guard notifier.isEnabled else { return }
    do {
      try send(notifier)
    } catch {
      logger.warn("cannot notify systemd: \(error)")
    }
  }

  private func logPluginReport(_ report: PluginLoadReport) {
    for diagnostic in report.diagnostics {
      switch diagnostic.severity {
      case .debug: logger.debug(diagnostic.message)
      case .info: logger.info(diagnostic.message)
      case .warning: logger.warn(diagnostic.message)
      case .error: logger.error(diagnostic.message)
      }
    }
  }

  private func warnAboutRoutes() {
    for operation in TransitionOperation.allCases {
      guard let name = config.routes[operation] else { continue }
      guard let animator = registry.animator(named: name) else {
        logger.warn("route \(operation.rawValue) -> \(name): no animator of that name is loaded")
        continue
      }
      if !animator.serves(operation) {
        logger.warn("route \(operation.rawValue) -> \(name): that animator does not serve it")
      }
    }
  }

  /// The plugin search path: the config's (or `--plugin-path`) entries, then
  /// `TRANSITIOND_PLUGIN_PATH`, then the installed layout's `<prefix>/lib/transitiond/plugins`
  /// when it exists, then the executable's own directory (a `swift build`).
  private static func pluginConfiguration(_ config: ServerConfig) -> PluginRegistry.Configuration {
    var searchPath = PluginSearchPath(configured: config.pluginPaths)
    let installed = InstalledLayout.running.pluginDirectory
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: installed, isDirectory: &isDirectory),
      isDirectory.boolValue, !searchPath.entries.contains(installed)
    {
      searchPath.fromEnvironment.append(installed)
    }
    return PluginRegistry.Configuration(
      searchPath: searchPath, allowInsecurePlugins: config.allowInsecurePlugins)
  }

  /// The admin rule of `config`, with its `adminGroup` looked up now.
  ///
  /// - Throws: ``ConfigError`` when `adminGroup` names no group.
  private static func adminPolicy(for config: ServerConfig, file: String?) throws(ConfigError)
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

@available(*, unavailable) extension Daemon: Sendable {}
