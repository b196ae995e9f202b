import Foundation

/// The Node.js script a user might write instead of transitiond (`peer_node.js`: an
/// album-flip-like evaluation, `JSON.stringify`, backpressure), started on a temporary socket
/// and read by the same reader as the daemon.
final class NodePeer {
  private let process = Process()
  private let path: String

  /// Starts `node script`; nil when `node` is not on the `PATH`.
  init?(script: String) throws {
    guard let node = Self.findNode() else { return nil }
    path = "/tmp/transition-bench-node-\(getpid()).sock"
    process.executableURL = URL(fileURLWithPath: node)
    process.arguments = [script, path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    DaemonProcess.running.add(process)
    _ = try LineSocket.waitingFor(path: path, within: 10)
  }

  /// Asks for `frames` frames of `cells` cells; returns (lines read, bytes read, seconds).
  func run(frames: Int, cells: Int) throws -> (frames: Int, bytes: Int, seconds: Double) {
    let start = Monotonic.now
    let socket = try LineSocket(path: path)
    try socket.send(#"{"frames":\#(frames),"cells":\#(cells)}"#)
    let read = try socket.countUntilComplete()
    return (read.lines, read.bytes, Monotonic.now - start)
  }

  func stop() {
    DaemonProcess.running.remove(process)
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    unlink(path)
  }

  private static func findNode() -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    for directory in directories {
      let candidate = "\(directory)/node"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
