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

/// Signals, and the orderly stop they start.
extension Daemon {
  func handle(signal: Int32) {
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
  func shutDown(reason: String) {
    guard !isStopping else { return }
    isStopping = true
    notify { try $0.notifyStopping() }
    listener?.close()
    listener = nil
    plugins.stop()
    core.shutDown(reason: reason)
    if peers.isEmpty {
      loop.stop()
    } else {
      loop.stop(after: Self.shutdownFlushSeconds)
    }
  }
}
