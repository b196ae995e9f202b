import Foundation
import Testing

@testable import IntegrationSupport

/// An album-flip push interrupted by its pop, recorded by the real daemon with
/// `transitionctl play`: the push begun interactive and held at ``instant`` (so that the
/// handover is the same on every run), then the pop played with `--interrupts push` on the
/// virtual clock. Both sessions' events are in ``path``, the push's first.
struct InterruptedRecording {
  /// The progress the push is held at when the pop interrupts it.
  static let instant = 0.4
  static let push = "push"
  static let pop = "pop"
  /// The recording of both sessions.
  let path: String

  /// Plays the push and the pop on `daemon`, writing into `directory`.
  init(daemon: TransitionctlDaemon, directory: TransitionctlTemporaryDirectory, fps: Int = 30)
    throws
  {
    let scenes = TransitionctlProducts.scenes
    let pushPath = directory.file("push.ndjson")
    let popPath = directory.file("pop.ndjson")
    let pushing = try TransitionctlRun(
      [
        "play", scenes.appendingPathComponent("album-flip-push.json").path, "--interactive",
        "--session", Self.push, "--fps", "\(fps)", "--out", pushPath,
      ], socket: daemon.socketPath)
    let control = try daemon.client()
    defer { control.close() }
    // The push is held once an update of it lands.
    let held = try DaemonHarness.waitUntil {
      try control.rawReply([
        "op": "update", "session": .string(Self.push), "progress": .number(Self.instant),
      ]).errorCode == nil
    }
    try #require(held, "the push never began: \(daemon.log)")
    let popped = try TransitionctlRun.run(
      [
        "play", scenes.appendingPathComponent("album-flip-pop.json").path, "--interrupts",
        Self.push, "--session", Self.pop, "--virtual", "--fps", "\(fps)", "--out", popPath,
      ], socket: daemon.socketPath)
    try #require(popped.status == 0, "\(popped.stderr)")
    let pushed = try pushing.wait()
    // Cancelled (3): the pop ended it.
    try #require(pushed.status == 3, "push: \(pushed.status) \(pushed.stderr)")
    path = directory.file("interrupted.ndjson")
    let both =
      try String(contentsOfFile: pushPath, encoding: .utf8)
      + String(contentsOfFile: popPath, encoding: .utf8)
    try both.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// The recording's events, one object a line.
  func events() throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }
}
