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

/// systemd: readiness notes and the watchdog's pings.
extension Daemon {
  /// Pings systemd's watchdog from a loop timer at half of `WATCHDOG_USEC`, when the unit
  /// sets `WatchdogSec=` for this process: a loop that stops turning stops the pings.
  func startWatchdog() {
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

  func notify(_ send: (SystemdNotifier) throws -> Void) {
    guard notifier.isEnabled else { return }
    do {
      try send(notifier)
    } catch {
      logger.warn("cannot notify systemd: \(error)")
    }
  }
}
