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

/// `reload` and SIGHUP: the config read again, applied, the plugins rescanned.
extension Daemon {
  /// Watches the data animator directories in force; a change rescans the data animators'
  /// plugin host.
  func watchAnimatorDirectories() {
    let watcher =
      animatorWatcher
      ?? AnimatorDirectoryWatcher(loop: loop) { [unowned self] in
        self.logger.debug("a data animator file changed: rescanning")
        self.plugins.requestScan()
      }
    animatorWatcher = watcher
    for problem in watcher.watch(plugins.settings.supervision.registry.animatorPaths) {
      logger.warn("cannot watch the animator directory \(problem)")
    }
  }

  /// Re-reads the config file and rescans the plugins; sessions, clients and the socket stay.
  ///
  /// The socket path and mode are fixed at start-up (a change is logged and ignored). Routes
  /// are reset to the config's, so run-time `route` changes do not survive a reload; the
  /// admin group is looked up again.
  /// - Parameter answer: Runs once, on the loop: when every plugin host has rescanned (a new
  ///   library's host started, a removed one's stopped, a rebuilt one's restarted), with the
  ///   animators loaded then and what the scans noticed; at once with `reload_failed` naming
  ///   the reason when the config does not load (the old config stays in force); with
  ///   `reload_failed` when a host goes down during the rescan for a reason no library is
  ///   blamed for (it restarts and scans again).
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
    // The hosts scan and answer later (`onDiagnostics` logs what they noticed); the reply
    // waits for every one.
    plugins.rescan(with: settings) { [unowned self] result in
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
              "the config is in force, but a plugin host failed during the rescan "
                + "(\(failure.message)); it restarts and scans again")))
      }
    }
    watchAnimatorDirectories()
  }
}
