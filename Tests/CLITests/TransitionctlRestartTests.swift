import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Clients across a restart of the real daemon: one daemon stopped, a new one started on the
/// same socket. The library reconnects, `watch '*'` says so once and shows the sessions begun
/// on the new daemon, `play` whose session was lost exits 5 with one line.
@Suite("clients ride out a restart", .serialized)
struct TransitionctlRestartTests {
  /// The daemon's count of subscriptions.
  static func subscriptions(_ daemon: DaemonProcess) -> Int {
    guard let client = try? daemon.client() else { return -1 }
    defer { client.close() }
    return (try? client.rawReply(["op": "stats"]))?.fields["stats"]?["subscriptions"]?
      .numberValue.map { Int($0) } ?? -1
  }

  @Test("DaemonClient.reconnect reaches the new daemon on the same socket")
  func libraryReconnects() throws {
    let first = try DaemonProcess()
    let client = try first.client()
    defer { client.close() }
    let before = try client.hello()
    first.stop()
    #expect(throws: ClientError.self) { _ = try client.hello() }
    let second = try DaemonProcess(directory: first.directory)
    #expect(try client.reconnect())
    let after = try client.hello()
    #expect(after.pid != before.pid)
    // A subscription on the new connection gets the new daemon's sessions.
    _ = try client.subscribe(session: "*")
    let started = try second.client().begin(context: DaemonScenes.present())
    let (frames, finished) = try client.framesUntilComplete(session: started.session)
    #expect(finished && !frames.isEmpty)
    withExtendedLifetime((first, second)) {}
  }

  @Test("watch '*' says once that the daemon stopped and shows the sessions begun after")
  func watchRidesOutARestart() throws {
    let first = try DaemonProcess()
    let watch = try TransitionctlRun(["watch", "*", "--no-pretty"], socket: first.socketPath)
    try #require(
      DaemonHarness.waitUntil { Self.subscriptions(first) == 1 }, "watch subscribed: \(first.log)")
    first.stop()
    let second = try DaemonProcess(directory: first.directory)
    try #require(
      DaemonHarness.waitUntil { Self.subscriptions(second) == 1 },
      "watch subscribed again: \(watch.stdoutSoFar.suffix(300))")
    let client = try second.client()
    defer { client.close() }
    let started = try client.begin(context: DaemonScenes.present(), duration: 0.1)
    let shown = DaemonHarness.waitUntil {
      watch.stdoutSoFar.split(separator: "\n").contains {
        $0.contains(#""event":"complete""#) && $0.contains(#""session":"\#(started.session)""#)
      }
    }
    #expect(shown, "watch shows \(started.session): \(watch.stdoutSoFar.suffix(300))")
    #expect(watch.process.isRunning, "watch runs on")
    watch.process.send(SIGTERM)
    let result = try watch.wait()
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "once: \(result.stderr)")
    #expect(result.stderr.contains("transitiond stopped; watching again"), "\(result.stderr)")
    let begins = result.stdout.split(separator: "\n").filter {
      $0.contains(#""event":"begin""#) && $0.contains(#""session":"\#(started.session)""#)
    }
    #expect(begins.count == 1, "\(result.stdout.suffix(300))")
    withExtendedLifetime((first, second)) {}
  }

  @Test("play whose session was lost in a restart exits 5 with one line")
  func playLosesItsSession() throws {
    let daemon = try DaemonProcess()
    let scene = TransitionctlProducts.scenes.appendingPathComponent("default-slide-push.json")
    let play = try TransitionctlRun(
      ["play", scene.path, "--duration", "60", "--session", "long"], socket: daemon.socketPath)
    try #require(
      DaemonHarness.waitUntil { Self.subscriptions(daemon) == 1 }, "play subscribed: \(daemon.log)")
    daemon.stop()
    let result = try play.wait()
    #expect(result.status == 5, "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("transitiond stopped during session long: the session is lost"),
      "\(result.stderr)")
  }

  @Test("watch SESSION whose session was lost in a restart exits 5 with one line")
  func watchOfOneSessionLosesIt() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    defer { client.close() }
    let started = try client.begin(context: DaemonScenes.present(), duration: 60)
    let watch = try TransitionctlRun(
      ["watch", started.session, "--no-pretty"], socket: daemon.socketPath)
    try #require(DaemonHarness.waitUntil { Self.subscriptions(daemon) == 1 })
    daemon.stop()
    let result = try watch.wait()
    #expect(result.status == 5, "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.contains("the session is lost"), "\(result.stderr)")
  }
}
