import Foundation

/// Recordings of the example scenes, made by the real daemon and `transitionctl play --out`.
enum ViewerRecorder {
  /// Plays scene `name` (config/scenes/<name>.json) on the virtual clock at `fps` as session
  /// `finished`, and, when `cancelled`, once more interactively as session `cancelled`: driven
  /// to progress 0.4, then cancelled (wall clock). Returns the path of one NDJSON file holding
  /// both sessions' frames, in that order.
  static func record(
    _ name: String, daemon: TransitionctlDaemon, into directory: TransitionctlTemporaryDirectory,
    fps: Int = 60, cancelled: Bool = true
  ) throws -> String {
    let scene = try TransitionctlScene(named: name).url.path
    let finishedPath = directory.file("\(name)-finished.ndjson")
    let finished = try TransitionctlRun.run(
      [
        "play", scene, "--virtual", "--fps", String(fps), "--session", "finished", "--out",
        finishedPath,
      ], socket: daemon.socketPath)
    guard finished.status == 0 else {
      throw DaemonHarnessError("play \(name) exited \(finished.status): \(finished.stderr)")
    }
    var text = try String(contentsOfFile: finishedPath, encoding: .utf8)
    if cancelled {
      let cancelledPath = directory.file("\(name)-cancelled.ndjson")
      let play = try TransitionctlRun(
        ["play", scene, "--interactive", "--session", "cancelled", "--out", cancelledPath],
        socket: daemon.socketPath)
      try daemon.waitForSessions("the interactive session's subscriber") { sessions in
        sessions.contains { $0.session == "cancelled" && $0.subscribers >= 1 }
      }
      for action in [["--progress", "0.4"], ["--cancel"]] {
        let drive = try TransitionctlRun.run(
          ["drive", "cancelled"] + action, socket: daemon.socketPath)
        guard drive.status == 0 else {
          throw DaemonHarnessError("drive \(action) exited \(drive.status): \(drive.stderr)")
        }
      }
      let result = try play.wait()
      guard result.status == 3 else {
        throw DaemonHarnessError("the cancelled play exited \(result.status): \(result.stderr)")
      }
      text += try String(contentsOfFile: cancelledPath, encoding: .utf8)
    }
    return try directory.write("\(name).ndjson", text)
  }
}
