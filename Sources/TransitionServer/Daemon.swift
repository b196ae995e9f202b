import EventLoop
import Foundation
import Glibc
import PluginHost
import TransitionKit
import TransitionWire

/// The transitiond daemon: one libevent loop with the Unix listener, the signal watcher, the
/// session table and every client connection on it.
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
/// to every client, flush (for at most ``shutdownFlushSeconds``), remove the socket and the
/// lock, and make ``run()`` return.
public final class Daemon {
  /// The daemon's version, reported by `hello` and `--version`.
  public static let version = "0.1.0"
  /// The wire protocol version, reported by `hello`.
  public static let protocolVersion = 1
  /// How long shutdown waits for clients to read what was queued for them.
  public static let shutdownFlushSeconds = 2.0

  let options: DaemonOptions
  private(set) var config: ServerConfig
  /// The socket path in use (fixed at start-up).
  public let socketPath: String
  let loop: EventLoop
  let logger: Logger
  let stats: Stats
  let registry: PluginRegistry
  var routes: RouteTable
  let sessions = SessionTable()
  private(set) var adminPolicy: AdminPolicy
  private(set) var clients: [UInt64: ClientConnection] = [:]
  /// Connections counted in all and per uid (`maxClients`, `maxClientsPerUser`).
  private var clientQuota = ClientQuota()
  /// Running sessions counted in all, per client and per uid.
  var sessionQuota = SessionQuota()
  private(set) var isStopping = false
  private var lastSubscriptionID = 0
  private var lock: SocketLock?
  private var listener: UnixListener?
  private var signals: SignalWatcher?
  private var shutdownTimer: LoopTimer?
  private var watchdogTimer: LoopTimer?
  private let notifier = SystemdNotifier.fromEnvironment()

  /// Reads the configuration and prepares the loop; nothing is bound yet.
  ///
  /// - Throws: ``StartupError`` for an unreadable or invalid config (naming the key) or a
  ///   loop that cannot be created.
  public init(options: DaemonOptions) throws(StartupError) {
    self.options = options
    let config: ServerConfig
    do {
      config = try options.effectiveConfig()
      try Self.validateEnvironment(of: config, file: options.configPath)
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
    stats = Stats(startTime: loop.now)
    socketPath =
      config.socket.isEmpty
      ? SocketPath.resolve(environment: ProcessInfo.processInfo.environment) : config.socket
    registry = PluginRegistry(configuration: Self.pluginConfiguration(config))
    routes = RouteTable(config.routes)
    adminPolicy = AdminPolicy(daemonUID: getuid(), groupName: config.adminGroup)
  }

  /// Starts serving and runs the loop until SIGINT or SIGTERM (or a failure).
  ///
  /// - Throws: ``StartupError`` when another instance holds the socket, no animator plugin
  ///   loads, or the socket cannot be bound.
  public func run() throws(StartupError) {
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
    logPluginReport(registry.rescan())
    let animators = registry.animators
    guard !animators.isEmpty else {
      let searched = registry.configuration.searchPath.entries.joined(separator: ", ")
      throw StartupError(
        exitStatus: StartupError.unavailableStatus,
        "no animator plugins found (searched: \(searched.isEmpty ? "nothing" : searched))")
    }
    warnAboutRoutes()
    do {
      listener = try UnixListener(
        loop: loop, path: socketPath, mode: mode_t(config.socketMode)
      ) { [unowned self] connection in
        self.accept(connection)
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
        exitStatus: StartupError.systemStatus, "cannot listen on \(socketPath): \(error)")
    }
    listener?.onAcceptError = { [unowned self] error in
      self.logger.warn("accepting a client failed: \(error)")
    }
    notify { try $0.notifyReady() }
    startWatchdog()
    logger.info(
      "listening on \(socketPath) (pid \(getpid()), \(animators.count) animators: "
        + animators.map(\.name).joined(separator: ", ") + ")")
    do {
      try loop.run()
    } catch {
      listener?.close()
      throw StartupError(exitStatus: StartupError.systemStatus, "the event loop failed: \(error)")
    }
    signals?.cancel()
    shutdownTimer?.cancel()
    watchdogTimer?.cancel()
    logger.info("stopped")
  }

  // MARK: Clients

  private func accept(_ connection: Connection) {
    guard !isStopping else {
      connection.close()
      return
    }
    let uid = connection.peerCredentials?.uid
    if let refusal = clientQuota.admit(uid: uid, limits: config.limits) {
      let pid = connection.peerCredentials.map { " (pid \($0.pid), uid \($0.uid))" } ?? ""
      logger.warn("refusing client \(connection.id)\(pid): \(refusal.message)")
      connection.write(WireMessage.failure(id: nil, refusal))
      connection.closeAfterFlush()
      return
    }
    let client = ClientConnection(connection: connection, daemon: self, limits: config.limits)
    clients[client.id] = client
    stats.connectionsCurrent += 1
    stats.connectionsTotal += 1
    logger.debug("\(client.peerDescription) connected")
  }

  /// Handles one request line from `client`.
  func handle(line: [UInt8], from client: ClientConnection) {
    let request: Request
    do {
      request = try Request(line: line)
    } catch {
      client.fail(id: error.id, error.error)
      return
    }
    RequestRouter(daemon: self).route(request, from: client)
  }

  /// Cleans up after a connection ended: its subscriptions end, and the sessions it began are
  /// handled as ``Session/ownerLeft(at:)`` says.
  func clientClosed(_ client: ClientConnection, reason: Connection.CloseReason) {
    guard clients.removeValue(forKey: client.id) != nil else { return }
    clientQuota.release(uid: client.credentials?.uid)
    sessionQuota.clientLeft(client.id)
    stats.connectionsCurrent -= 1
    for subscription in client.subscriptions {
      cancel(subscription, of: client)
    }
    if !isStopping {
      let now = loop.now
      for session in sessions.all where session.ownerConnectionID == client.id {
        session.ownerLeft(at: now)
      }
    }
    switch reason {
    case .failed(let error): logger.debug("\(client.peerDescription) failed: \(error)")
    case .local, .peerClosed: logger.debug("\(client.peerDescription) disconnected")
    }
  }

  // MARK: Subscriptions and sessions

  /// A fresh subscription id, unique for the daemon's lifetime.
  func makeSubscriptionID() -> Int {
    lastSubscriptionID += 1
    return lastSubscriptionID
  }

  /// Ends `subscription` and forgets it.
  func cancel(_ subscription: Subscription, of client: ClientConnection) {
    subscription.cancel()
    sessions.removeEverySessionSubscription(subscription)
    client.subscriptionEnded(subscription)
  }

  /// Adds a session that has just been created and starts its clock's completion timer; `*`
  /// subscribers receive its `begin` event and start following it.
  func start(_ session: Session) {
    session.onComplete = { [unowned self] session in self.sessionCompleted(session) }
    sessions.insert(session)
    sessionQuota.charge(client: session.ownerConnectionID, uid: session.ownerUID)
    stats.sessionsByAnimator[session.animatorName, default: 0] += 1
    session.start()
    let event = beginEvent(for: session)
    for subscription in sessions.everySessionSubscriptions {
      guard let client = subscription.client else { continue }
      client.send(event)
      guard client.isOpen else { continue }
      subscription.follow(session)
      if subscription.clock == .virtual { client.pumpVirtual() }
    }
  }

  /// The `begin` event announcing `session` to `*` subscribers.
  func beginEvent(for session: Session) -> [UInt8] {
    WireMessage.event(
      "begin",
      [
        "session": .string(session.id), "animator": .string(session.animatorName),
        "operation": .string(session.operation.rawValue), "duration": .number(session.duration),
        "interactive": .bool(session.interactive),
      ])
  }

  private func sessionCompleted(_ session: Session) {
    sessions.remove(session)
    sessionQuota.release(client: session.ownerConnectionID, uid: session.ownerUID)
    let finished = session.outcome?.finished ?? false
    if finished {
      stats.sessionsCompleted += 1
    } else {
      stats.sessionsCancelled += 1
    }
    logger.info("session \(session.id) \(finished ? "finished" : "was cancelled")")
  }

  // MARK: Reload

  /// Re-reads the config file and rescans the plugins; sessions, clients and the socket stay.
  ///
  /// The socket path and mode are fixed at start-up (a change is logged and ignored). Routes
  /// are reset to the config's, so run-time `route` changes do not survive a reload.
  /// - Returns: The number of animators loaded after the rescan.
  /// - Throws: `WireError` `reload_failed` naming the reason; the old config stays in force.
  @discardableResult
  func reload() throws(WireError) -> Int {
    notify { try $0.notifyReloading() }
    defer { notify { try $0.notifyReady() } }
    var newConfig: ServerConfig
    do {
      newConfig = try options.effectiveConfig()
      try Self.validateEnvironment(of: newConfig, file: options.configPath)
    } catch {
      logger.warn("reload refused, the previous config stays in force: \(error)")
      throw WireError(.reloadFailed, error.description)
    }
    if newConfig.socket != config.socket || newConfig.socketMode != config.socketMode {
      logger.warn("socket and socketMode changes take effect at the next start")
      newConfig.socket = config.socket
      newConfig.socketMode = config.socketMode
    }
    config = newConfig
    logger.level = newConfig.logLevel
    routes = RouteTable(newConfig.routes)
    adminPolicy = AdminPolicy(daemonUID: getuid(), groupName: newConfig.adminGroup)
    logPluginReport(registry.rescan(with: Self.pluginConfiguration(newConfig)))
    warnAboutRoutes()
    let count = registry.animators.count
    logger.info("reloaded the config: \(count) animators, \(sessions.count) sessions kept")
    return count
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

  /// Stops accepting, tells every client `stopping`, flushes and stops the loop.
  private func shutDown(reason: String) {
    guard !isStopping else { return }
    isStopping = true
    logger.info("stopping (\(reason)): \(clients.count) clients, \(sessions.count) sessions")
    notify { try $0.notifyStopping() }
    listener?.close()
    listener = nil
    for session in sessions.all { session.shutDown() }
    let stopping = WireMessage.event("stopping")
    let connected = Array(clients.values)
    for client in connected { client.send(stopping) }
    let connections = connected.map(\.connection)
    for client in connected { client.closeAfterFlush() }
    let deadline = loop.now + Self.shutdownFlushSeconds
    shutdownTimer = try? LoopTimer(loop: loop) { [unowned self] in
      let flushed = connections.allSatisfy { $0.pendingOutputBytes == 0 }
      if flushed || self.loop.now >= deadline { self.loop.stop() }
    }
    if let shutdownTimer {
      shutdownTimer.scheduleRepeating(every: 0.005, startingAt: loop.now)
    } else {
      loop.stop()
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
      guard let name = routes.animator(for: operation) else { continue }
      guard let animator = registry.animator(named: name) else {
        logger.warn("route \(operation.rawValue) -> \(name): no animator of that name is loaded")
        continue
      }
      if !animator.serves(operation) {
        logger.warn("route \(operation.rawValue) -> \(name): that animator does not serve it")
      }
    }
  }

  private static func pluginConfiguration(_ config: ServerConfig) -> PluginRegistry.Configuration {
    PluginRegistry.Configuration(
      searchPath: PluginSearchPath(configured: config.pluginPaths),
      allowInsecurePlugins: config.allowInsecurePlugins)
  }

  /// Checks what the config names outside itself: the admin group must exist.
  private static func validateEnvironment(of config: ServerConfig, file: String?)
    throws(ConfigError)
  {
    if !config.adminGroup.isEmpty, !AdminPolicy.groupExists(config.adminGroup) {
      throw ConfigError(file: file, "adminGroup names no group: \"\(config.adminGroup)\"")
    }
  }
}
