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
/// stale socket is replaced), start the plugin host and let it load the plugins (none is a
/// start-up failure), then listen, watch signals, tell systemd `READY=1`. The daemon never
/// loads a plugin itself: the plugin host process does (``PluginHostSupervisor``), and the
/// built-in `default-slide` serves every `begin` a plugin cannot. SIGHUP and the `reload` op
/// re-read the config and rescan the plugins without touching sessions. SIGINT and SIGTERM stop accepting, send `stopping`
/// to every client, and end the loop when every socket has flushed and closed, or after
/// ``shutdownFlushSeconds`` (libevent's own loop exit); then the socket and the lock go.
final class Daemon {
  /// How long shutdown waits for clients to read what was queued for them.
  static let shutdownFlushSeconds = 2.0

  let options: DaemonOptions
  private(set) var config: DaemonConfig
  /// The socket path in use (fixed at start-up).
  let socketPath: String
  let loop: EventLoop
  let logger: Logger
  let supervisor: PluginHostSupervisor
  let animators: HostedAnimatorSource
  let core: ServerCore
  /// Failures before the first scan after which the daemon gives up starting.
  static let startAttempts = 3
  /// Every accepted connection until its socket closes (after any flush).
  private var peers: [UInt64: UnixPeer] = [:]
  private var isStopping = false
  private var lock: SocketLock?
  private var listener: UnixListener?
  private var viewer: ViewerListener?
  /// Rescans the plugin host when a data animator file changes.
  private var animatorWatcher: AnimatorDirectoryWatcher?
  private var signals: SignalWatcher?
  private var watchdogTimer: LoopTimer?
  private let notifier = SystemdNotifier.fromEnvironment()
  private var isServing = false
  private var startupFailure: StartupError?

  /// Reads the configuration and prepares the loop and the core; nothing is bound yet.
  ///
  /// - Throws: ``StartupError`` for an unreadable or invalid config (naming the key) or a
  ///   loop that cannot be created.
  init(options: DaemonOptions) throws(StartupError) {
    self.options = options
    let (config, adminPolicy, settings): (DaemonConfig, AdminPolicy, PluginHostSettings)
    do {
      (config, adminPolicy, settings) = try Self.readConfiguration(options)
    } catch {
      throw StartupError(exitStatus: StartupError.configStatus, error.description)
    }
    self.config = config
    do {
      loop = try EventLoop()
    } catch {
      throw StartupError(
        exitStatus: StartupError.systemStatus, "cannot create the event loop: \(error)")
    }
    let clock = LoopClock(loop: loop)
    logger = Logger(level: config.logLevel, clock: clock, sink: StandardErrorLogSink())
    clock.logger = logger
    socketPath =
      config.socket.isEmpty
      ? SocketPath.resolve(environment: ProcessInfo.processInfo.environment, uid: getuid())
      : config.socket
    supervisor = PluginHostSupervisor(loop: loop, settings: settings, logger: logger)
    animators = HostedAnimatorSource(supervisor: supervisor)
    core = ServerCore(
      config: config.server, adminPolicy: adminPolicy, animators: animators,
      fallback: BuiltinFallback(), clock: clock, logger: logger, processID: getpid())
    core.reloadHandler = { [unowned self] answer in self.reload(answer: answer) }
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

  /// Starts the plugin host and runs the loop; the host's first scan then starts listening
  /// (on `activated`, the socket systemd passed, or on a socket of its own at
  /// ``socketPath``), and the loop runs until a stop.
  private func serve(adopting activated: Int32?) throws(StartupError) {
    logger.info(
      options.configPath.map { "config: \($0)" } ?? "config: none found, built-in defaults")
    supervisor.onScanned = { [unowned self] report in self.scanned(report, adopting: activated) }
    supervisor.onFailureBeforeFirstScan = { [unowned self] reason in
      guard self.supervisor.policy.consecutiveFailures >= Self.startAttempts else { return }
      self.failStartup(
        StartupError(
          exitStatus: StartupError.systemStatus,
          "the plugin host failed \(Self.startAttempts) times before loading any plugin: "
            + reason))
    }
    supervisor.start()
    watchAnimatorDirectories()
    do {
      try loop.run()
    } catch {
      listener?.close()
      supervisor.stop()
      throw StartupError(exitStatus: StartupError.systemStatus, "the event loop failed: \(error)")
    }
    supervisor.stop()
    signals?.cancel()
    watchdogTimer?.cancel()
    animatorWatcher?.stop()
    viewer?.close()
    viewer = nil
    if let startupFailure { throw startupFailure }
    logger.info("stopped")
  }

  /// A scan of the plugin host completed: logs it, and the first one starts serving.
  private func scanned(_ report: ScanReport, adopting activated: Int32?) {
    logPluginReport(report.diagnostics)
    noteMissingAnimators(report)
    guard !isServing else { return }
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
      listener = nil
      failStartup(
        StartupError(
          exitStatus: StartupError.systemStatus, "cannot listen on \(listeningPath): \(error)"))
      return
    }
    listener?.onAcceptError = { [unowned self] error in
      self.logger.warn("accepting a client failed: \(error)")
    }
    do {
      try startViewer()
    } catch {
      listener?.close()
      listener = nil
      failStartup(error)
      return
    }
    isServing = true
    notify { try $0.notifyReady() }
    startWatchdog()
    let animators = core.servedAnimators
    logger.info(
      "listening on \(listeningPath)\(activated == nil ? "" : " (socket activation)") (pid "
        + "\(getpid()), \(animators.count) animators: "
        + animators.map(\.name).joined(separator: ", ") + ")")
  }

  /// When a scan left nothing loaded, says why in the log and in the `animators` reply
  /// (`missing`); the built-in fallback serves alone. A later scan that loads something
  /// clears it.
  private func noteMissingAnimators(_ report: ScanReport) {
    guard supervisor.catalog.isEmpty else {
      animators.missing = nil
      return
    }
    let searched = supervisor.settings.supervision.registry.searchPath.entries
    let directories = supervisor.settings.supervision.registry.animatorPaths
    let plugins = searched.isEmpty ? "nothing" : searched.joined(separator: ", ")
    let data = directories.isEmpty ? "nothing" : directories.joined(separator: ", ")
    var reason =
      "no animators found (searched for plugins: \(plugins); for data animators: \(data))"
    if let problem = report.diagnostics.first(where: \.isProblem) {
      reason += "; first problem: \(problem.message)"
    }
    reason += "; only the built-in \(PluginRegistry.fallbackAnimatorName) serves"
    if animators.missing != reason { logger.warn(reason) }
    animators.missing = reason
  }

  /// Ends start-up with `error`: the loop stops and ``run()`` throws it.
  private func failStartup(_ error: StartupError) {
    guard startupFailure == nil, !isServing else { return }
    startupFailure = error
    supervisor.stop()
    loop.stop()
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

  /// Watches the data animator directories in force; a change rescans the plugin host.
  private func watchAnimatorDirectories() {
    let watcher =
      animatorWatcher
      ?? AnimatorDirectoryWatcher(loop: loop) { [unowned self] in
        self.logger.debug("a data animator file changed: rescanning")
        self.supervisor.requestScan()
      }
    animatorWatcher = watcher
    for problem in watcher.watch(supervisor.settings.supervision.registry.animatorPaths) {
      logger.warn("cannot watch the animator directory \(problem)")
    }
  }

  /// Re-reads the config file and rescans the plugins; sessions, clients and the socket stay.
  ///
  /// The socket path and mode are fixed at start-up (a change is logged and ignored). Routes
  /// are reset to the config's, so run-time `route` changes do not survive a reload; the
  /// admin group is looked up again.
  /// - Parameter answer: Runs once, on the loop: when the plugin host's rescan is done, with
  ///   the animators loaded then and what the scan noticed (a rebuilt library among them,
  ///   also logged); at once with `reload_failed` naming the reason when the config does not
  ///   load (the old config stays in force); with `reload_failed` when the host goes down
  ///   during the rescan for a reason no library is blamed for (it restarts and scans again).
  func reload(answer: @escaping (Result<ReloadOutcome, WireError>) -> Void = { _ in }) {
    notify { try $0.notifyReloading() }
    var newConfig: DaemonConfig
    let adminPolicy: AdminPolicy
    let settings: PluginHostSettings
    do {
      (newConfig, adminPolicy, settings) = try Self.readConfiguration(options)
    } catch {
      logger.warn("reload refused, the previous config stays in force: \(error)")
      notify { try $0.notifyReady() }
      answer(.failure(WireError(.reloadFailed, error.description)))
      return
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
    core.apply(config: newConfig.server, adminPolicy: adminPolicy)
    // The host scans and answers later (`onScanned` logs what it noticed, a rebuilt library
    // included); the reply waits for it.
    supervisor.rescan(with: settings) { [unowned self] result in
      self.notify { try $0.notifyReady() }
      switch result {
      case .success(let report):
        self.warnAboutRoutes()
        let count = self.core.servedAnimators.count
        self.logger.info(
          "reloaded the config: \(count) animators, \(self.core.sessionCount) sessions kept")
        // What needs a reader: warnings and errors (debug and info notes are only logged).
        let noticed = report.diagnostics.filter { $0.severity >= .warning }
        answer(.success(ReloadOutcome(animators: count, diagnostics: noticed)))
      case .failure(let failure):
        self.logger.warn("reloaded the config, but the plugin rescan failed: \(failure.message)")
        answer(
          .failure(
            WireError(
              .reloadFailed,
              "the config is in force, but the plugin host failed during the rescan "
                + "(\(failure.message)); it restarts and scans again")))
      }
    }
    watchAnimatorDirectories()
  }

  // MARK: Signals and shutdown

  private func handle(signal: Int32) {
    switch signal {
    case SIGHUP:
      logger.info("SIGHUP: reloading")
      reload()
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
    supervisor.stop()
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

  private func logPluginReport(_ diagnostics: [PluginDiagnostic]) {
    for diagnostic in diagnostics {
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
      guard let animator = animators.animator(named: name) else {
        logger.warn("route \(operation.rawValue) -> \(name): no animator of that name is loaded")
        continue
      }
      if !animator.serves(operation) {
        logger.warn("route \(operation.rawValue) -> \(name): that animator does not serve it")
      }
    }
  }

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
  private static func readConfiguration(_ options: DaemonOptions) throws(ConfigError)
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
  private static func adminPolicy(for config: DaemonConfig, file: String?) throws(ConfigError)
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
