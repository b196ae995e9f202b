import DaemonLauncher
import Foundation
import TransitionClient
import TransitionJSON

/// The `transitiond` under soak: started from the build's products directory on a socket in a
/// temporary directory, with the built plugins, the repository's data animators and its HTTP
/// viewer listener on a port the system picks; its log goes to `daemon.log` there.
final class SoakDaemon {
  let directory: String
  let socketPath: String
  let logPath: String
  let launcher: DaemonLauncher
  /// The viewer page's URL with its token.
  private(set) var viewerURL = ""

  /// Starts the daemon and waits (up to 10 s, polling) until it answers `hello`.
  /// - Throws: ``SoakFailure`` when it does not start or answer.
  init(binDirectory: String, animatorDirectory: String) throws {
    directory = NSTemporaryDirectory() + "transition-soak-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    socketPath = directory + "/transitiond.sock"
    logPath = directory + "/daemon.log"
    let config: JSONValue = .object([
      "pluginPaths": [.string(binDirectory)],
      "animatorPaths": [.string(animatorDirectory)],
      "logLevel": "warn",
      "http": ["listen": "127.0.0.1:0"],
    ])
    let configPath = directory + "/transitiond.json"
    try Data(config.serialized.utf8).write(to: URL(fileURLWithPath: configPath))
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    launcher = try DaemonLauncher(
      binary: binDirectory + "/transitiond", socketPath: socketPath,
      arguments: ["--config", configPath],
      standardError: FileHandle(forWritingAtPath: logPath))
    let answered = DaemonLauncher.poll(within: 10, every: 0.05) {
      guard launcher.isRunning else { return true }
      guard let client = try? DaemonClient(path: socketPath), let info = try? client.hello()
      else { return false }
      viewerURL = info.viewer ?? ""
      client.close()
      return true
    }
    guard answered, launcher.isRunning else {
      stop()
      throw SoakFailure("transitiond did not start; its log: \(logPath)")
    }
  }

  /// The daemon's process.
  var process: Process { launcher.process }

  var pid: Int32 { launcher.pid }

  /// A plugin host (the daemon has one per library and one for the data animators): its
  /// first child process, if one runs now.
  var pluginHostPID: Int32? { ProcessProbe.children(of: pid).first }

  /// Stops the daemon with SIGTERM and waits for it.
  /// - Returns: its exit status.
  @discardableResult
  func stop() -> Int32 {
    launcher.stop()
  }

  /// The last lines of the daemon's log.
  func logTail(lines: Int = 20) -> String {
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
  }
}
