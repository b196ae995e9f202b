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

/// The listeners: the Unix socket's connections and the HTTP viewer's.
extension Daemon {
  /// Starts the HTTP viewer listener when `http.listen` is set, and logs its URL.
  ///
  /// - Throws: ``StartupError`` when the address cannot be bound.
  func startViewer() throws(StartupError) {
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

  func accept(_ connection: Connection) {
    let peer = UnixPeer(connection: connection, core: core, limits: config.limits) {
      [unowned self] peer in self.socketClosed(peer)
    }
    peers[peer.id] = peer
    core.connect(peer)
  }

  func socketClosed(_ peer: UnixPeer) {
    peers[peer.id] = nil
    if isStopping, peers.isEmpty { loop.stop() }
  }
}
