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
/// stale socket is replaced), start the plugin hosts and let them load the plugins (none is a
/// start-up failure), then listen, watch signals, tell systemd `READY=1`. The daemon never
/// loads a plugin itself: one plugin host process per library, and one for the data
/// animators, does (``PluginHostPool``), and the built-in `default-slide` serves every
/// `begin` a plugin cannot. SIGHUP and the `reload` op
/// re-read the config and rescan the plugins without touching sessions. SIGINT and SIGTERM stop accepting, send `stopping`
/// to every client, and end the loop when every socket has flushed and closed, or after
/// ``shutdownFlushSeconds`` (libevent's own loop exit); then the socket and the lock go.
final class Daemon {
  /// How long shutdown waits for clients to read what was queued for them.
  static let shutdownFlushSeconds = 2.0

  let options: DaemonOptions
  var config: DaemonConfig
  /// The socket path in use (fixed at start-up).
  let socketPath: String
  let loop: EventLoop
  let logger: Logger
  let plugins: PluginHostPool
  let animators: HostedAnimatorSource
  let core: ServerCore
  /// Failures before the first scan after which the daemon gives up starting.
  static let startAttempts = 3
  /// Every accepted connection until its socket closes (after any flush).
  var peers: [UInt64: UnixPeer] = [:]
  var isStopping = false
  var lock: SocketLock?
  var listener: UnixListener?
  var viewer: ViewerListener?
  /// Rescans the plugin host when a data animator file changes.
  var animatorWatcher: AnimatorDirectoryWatcher?
  var signals: SignalWatcher?
  var watchdogTimer: LoopTimer?
  let notifier = SystemdNotifier.fromEnvironment()
  var isServing = false
  var startupFailure: StartupError?
  /// What the plugin hosts noticed before they were all ready, for the `missing` sentence.
  var noticedBeforeReady: [PluginDiagnostic] = []

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
    plugins = PluginHostPool(loop: loop, settings: settings, logger: logger)
    animators = HostedAnimatorSource(pool: plugins)
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

  /// Starts the plugin hosts and runs the loop; once every host has completed its first scan
  /// the daemon listens (on `activated`, the socket systemd passed, or on a socket of its own
  /// at ``socketPath``), and the loop runs until a stop.
  func serve(adopting activated: Int32?) throws(StartupError) {
    logger.info(
      options.configPath.map { "config: \($0)" } ?? "config: none found, built-in defaults")
    plugins.onDiagnostics = { [unowned self] diagnostics in self.noticed(diagnostics) }
    plugins.onReady = { [unowned self] in self.pluginsReady(adopting: activated) }
    plugins.onFailureBeforeFirstScan = { [unowned self] reason, failures in
      guard failures >= Self.startAttempts else { return }
      self.failStartup(
        StartupError(
          exitStatus: StartupError.systemStatus,
          "a plugin host failed \(Self.startAttempts) times before loading any plugin: "
            + reason))
    }
    plugins.start()
    watchAnimatorDirectories()
    do {
      try loop.run()
    } catch {
      listener?.close()
      plugins.stop()
      throw StartupError(exitStatus: StartupError.systemStatus, "the event loop failed: \(error)")
    }
    plugins.stop()
    signals?.cancel()
    watchdogTimer?.cancel()
    animatorWatcher?.stop()
    viewer?.close()
    viewer = nil
    if let startupFailure { throw startupFailure }
    logger.info("stopped")
  }

  /// What a plugin host's scan, or the daemon's own search for libraries, noticed: logged, and
  /// once the hosts are ready, the `missing` sentence updated.
  func noticed(_ diagnostics: [PluginDiagnostic]) {
    logPluginReport(diagnostics)
    if isServing {
      noteMissingAnimators(diagnostics)
    } else {
      noticedBeforeReady += diagnostics
    }
  }

  /// Every plugin host has completed its first scan: the daemon starts serving.
  func pluginsReady(adopting activated: Int32?) {
    noteMissingAnimators(noticedBeforeReady)
    noticedBeforeReady = []
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
  func noteMissingAnimators(_ diagnostics: [PluginDiagnostic]) {
    guard plugins.catalog.isEmpty else {
      animators.missing = nil
      return
    }
    let searched = plugins.settings.supervision.registry.searchPath.entries
    let directories = plugins.settings.supervision.registry.animatorPaths
    let plugins = searched.isEmpty ? "nothing" : searched.joined(separator: ", ")
    let data = directories.isEmpty ? "nothing" : directories.joined(separator: ", ")
    var reason =
      "no animators found (searched for plugins: \(plugins); for data animators: \(data))"
    if let problem = diagnostics.first(where: \.isProblem) {
      reason += "; first problem: \(problem.message)"
    }
    reason += "; only the built-in \(PluginRegistry.fallbackAnimatorName) serves"
    if animators.missing != reason { logger.warn(reason) }
    animators.missing = reason
  }

  /// Ends start-up with `error`: the loop stops and ``run()`` throws it.
  func failStartup(_ error: StartupError) {
    guard startupFailure == nil, !isServing else { return }
    startupFailure = error
    plugins.stop()
    loop.stop()
  }
}

@available(*, unavailable) extension Daemon: Sendable {}
