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

/// What the daemon logs of its animators: a scan's report and routes to animators not loaded.
extension Daemon {
  func logPluginReport(_ diagnostics: [PluginDiagnostic]) {
    for diagnostic in diagnostics {
      switch diagnostic.severity {
      case .debug: logger.debug(diagnostic.message)
      case .info: logger.info(diagnostic.message)
      case .warning: logger.warn(diagnostic.message)
      case .error: logger.error(diagnostic.message)
      }
    }
  }

  func warnAboutRoutes() {
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
}
