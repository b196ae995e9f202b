import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// The admin verbs against the real daemon: `use`, `reload`, `end`, and their refusal for
/// another user.
@Suite("transitionctl admin commands", .serialized)
struct TransitionctlAdminTests {
  @Test("use switches a route, and routes and animators show it")
  func useSwitchesRoute() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(
      ["use", "push", "default-slide", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let routes = try #require(try result.json()["routes"] as? [String: String])
    #expect(routes["push"] == "default-slide")
    #expect(routes["pop"] == "album-flip")

    let client = try daemon.client()
    defer { client.close() }
    #expect(try client.routes()["push"] == "default-slide")

    let table = try TransitionctlRun.run(["animators"], socket: daemon.socketPath)
    let defaultSlide = try #require(
      table.stdout.split(separator: "\n").first { $0.hasPrefix("default-slide ") })
    #expect(defaultSlide.contains("push* pop present dismiss"))
    let albumFlip = try #require(
      table.stdout.split(separator: "\n").first { $0.hasPrefix("album-flip ") })
    #expect(albumFlip.contains("push pop*"))

    // A push that names no animator now runs on default-slide.
    let scene = try TransitionctlScene(named: "album-flip-push")
    let started = try client.begin(context: scene.context)
    #expect(started.animator == "default-slide")

    let human = try TransitionctlRun.run(["use", "push", "album-flip"], socket: daemon.socketPath)
    #expect(human.status == 0)
    #expect(human.stdout.contains("push       album-flip"))
  }

  @Test("use with an unknown animator exits 1 with the daemon's code")
  func useUnknownAnimator() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(
      ["use", "push", "no-such-animator"], socket: daemon.socketPath)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("transitionctl: unknown_animator: "))
    #expect(result.stdout.isEmpty)
    let client = try daemon.client()
    defer { client.close() }
    #expect(try client.routes()["push"] == "album-flip")
  }

  @Test("use for an operation the animator does not serve exits 1")
  func useUnsupportedOperation() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(
      ["use", "present", "album-flip"], socket: daemon.socketPath)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("transitionctl: unsupported_operation: "))
  }

  @Test(
    "admin verbs are forbidden to another user: exit 77",
    .enabled(if: TransitionctlProducts.canSwitchUser, "needs root and setpriv to run as nobody"))
  func forbiddenForAnotherUser() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    daemon.openSocketToEveryone()

    // A read command works for nobody, so the socket is reachable ...
    let read = try TransitionctlRun.run(
      ["routes", "--json"], socket: daemon.socketPath, asNobody: true)
    #expect(read.status == 0, "nobody cannot reach the socket: \(read.stderr)")

    // ... and the admin ones are refused.
    let use = try TransitionctlRun.run(
      ["use", "push", "default-slide"], socket: daemon.socketPath, asNobody: true)
    #expect(use.status == 77)
    #expect(use.stderr.hasPrefix("transitionctl: forbidden: "))
    let reload = try TransitionctlRun.run(["reload"], socket: daemon.socketPath, asNobody: true)
    #expect(reload.status == 77)

    let client = try daemon.client()
    defer { client.close() }
    #expect(try client.routes()["push"] == "album-flip")
  }

  @Test("reload --json reports the animators loaded")
  func reload() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let loaded = try client.animators().animators.count

    let result = try TransitionctlRun.run(["reload", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try result.json()["animators"] as? Int == loaded)
    let human = try TransitionctlRun.run(["reload"], socket: daemon.socketPath)
    #expect(human.stdout == "reloaded: \(loaded) animators\n")
  }

  @Test("end cancels a session at once; its watcher sees finished false")
  func endSession() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let scene = try TransitionctlScene(named: "zoom-present-present")
    let started = try client.begin(context: scene.context, interactive: true, session: "ending")
    _ = try client.subscribe(session: started.session)

    let result = try TransitionctlRun.run(["end", "ending"], socket: daemon.socketPath)
    #expect(result.status == 0)
    #expect(result.stdout == "ended ending\n")
    let outcome = try client.framesUntilComplete(session: "ending", timeout: .seconds(30))
    #expect(outcome.finished == false)

    let unknown = try TransitionctlRun.run(["end", "no-such-session"], socket: daemon.socketPath)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("transitionctl: unknown_session: "))
  }
}
