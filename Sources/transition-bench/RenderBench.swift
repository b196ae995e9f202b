import Foundation

/// `transitionctl render` with each renderer: the one-second album flip
/// (config/scenes/album-flip-push.json) recorded once at the rate a GIF plays by default
/// (33.3 fps), then rendered to a GIF at scale 1 by the native renderer and by headless
/// Chromium, run after run alternating, each run the whole command (start-up, drawing,
/// encoding) timed on the wall clock.
struct RenderBench {
  struct Result {
    var native: Percentiles
    var chromium: Percentiles
  }

  /// The scene, beside the data animators of the checkout or the installation.
  static var scene: String {
    ((DaemonProcess.animatorDirectory as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("scenes/album-flip-push.json")
  }

  let daemon: DaemonProcess
  let binDirectory: URL

  func run(runs: Int) throws -> Result {
    let recording = daemon.directory + "/flip.ndjson"
    let images = ((Self.scene as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("images")
    try transitionctl(
      [
        "--socket", daemon.socketPath, "play", Self.scene, "--virtual", "--fps",
        String(100.0 / 3), "--out", recording,
      ])
    var native: [Double] = []
    var chromium: [Double] = []
    for _ in 0..<runs {
      for renderer in ["native", "chromium"] {
        let started = Monotonic.now
        try transitionctl([
          "render", recording, "--out", daemon.directory + "/flip-\(renderer).gif",
          "--renderer", renderer, "--images", images, "--quiet",
        ])
        let seconds = Monotonic.now - started
        if renderer == "native" { native.append(seconds) } else { chromium.append(seconds) }
      }
    }
    return Result(native: Percentiles(native), chromium: Percentiles(chromium))
  }

  private func transitionctl(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = binDirectory.appendingPathComponent("transitionctl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "transitionctl \(arguments.joined(separator: " ")): "
          + String(decoding: message, as: UTF8.self))
    }
  }
}
