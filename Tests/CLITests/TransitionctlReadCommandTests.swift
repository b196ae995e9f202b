import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// The read verbs against the real daemon: `version`, `animators`, `routes`, `sessions`,
/// `stats`, with `--json` parsed and the human tables checked.
@Suite("transitionctl read commands", .serialized)
struct TransitionctlReadCommandTests {
  @Test("version --json carries the daemon's hello")
  func version() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(["version", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let json = try result.json()
    #expect(json["server"] as? String == "transitiond")
    #expect(json["protocol"] as? Int == 1)
    #expect(json["pid"] as? Int == Int(daemon.launcher.pid))
    #expect(json["ok"] == nil)
    #expect(json["id"] == nil)
    let human = try TransitionctlRun.run(["version"], socket: daemon.socketPath)
    #expect(human.status == 0)
    #expect(human.stdout.contains("pid \(daemon.launcher.pid)"))
  }

  @Test("animators --json lists the shipped animators and the default routes")
  func animatorsJSON() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(["animators", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let json = try result.json()
    let animators = try #require(json["animators"] as? [[String: Any]])
    let byName = Dictionary(
      animators.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } },
      uniquingKeysWith: { first, _ in first })
    #expect(Set(byName.keys).isSuperset(of: ["album-flip", "zoom-present", "default-slide"]))
    #expect(byName["album-flip"]?["operations"] as? [String] == ["push", "pop"])
    #expect(byName["zoom-present"]?["operations"] as? [String] == ["present", "dismiss"])
    #expect(
      Set(byName["default-slide"]?["operations"] as? [String] ?? [])
        == ["push", "pop", "present", "dismiss"])
    let routes = try #require(json["routes"] as? [String: String])
    #expect(routes["push"] == "album-flip")
    #expect(routes["pop"] == "album-flip")
    #expect(routes["present"] == "zoom-present")
    #expect(routes["dismiss"] == "zoom-present")
  }

  @Test("animators prints a table with each operation's route marked")
  func animatorsTable() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(["animators"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("NAME") == true)
    let albumFlip = try #require(lines.first { $0.hasPrefix("album-flip ") })
    #expect(albumFlip.contains("push* pop*"))
    // A data animator's plugin column says so; it has no version.
    #expect(albumFlip.split(separator: " ").contains("data"))
    let defaultSlide = try #require(lines.first { $0.hasPrefix("default-slide ") })
    #expect(defaultSlide.contains("push pop present dismiss"))
    #expect(!defaultSlide.contains("*"))
    let quiet = try TransitionctlRun.run(["animators", "-q"], socket: daemon.socketPath)
    #expect(quiet.stdout.split(separator: "\n").contains("zoom-present"))
  }

  @Test("routes --json and the routes table agree")
  func routes() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let json = try TransitionctlRun.run(["routes", "--json"], socket: daemon.socketPath)
    #expect(json.status == 0)
    let routes = try #require(try json.json()["routes"] as? [String: String])
    #expect(routes["present"] == "zoom-present")
    let table = try TransitionctlRun.run(["routes"], socket: daemon.socketPath)
    #expect(table.status == 0)
    let rows = table.stdout.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }
    #expect(rows.first == ["OPERATION", "ANIMATOR"])
    #expect(rows.dropFirst().map { $0.first ?? "" } == ["push", "pop", "present", "dismiss"])
    for row in rows.dropFirst() where row.count == 2 {
      #expect(routes[row[0]] == row[1])
    }
  }

  @Test("sessions lists an interactive session in JSON, as a table and by id")
  func sessions() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let empty = try TransitionctlRun.run(["sessions", "--json"], socket: daemon.socketPath)
    #expect(empty.status == 0)
    #expect((try empty.json()["sessions"] as? [Any])?.isEmpty == true)

    let client = try daemon.client()
    defer { client.close() }
    let scene = try TransitionctlScene(named: "album-flip-push")
    let started = try client.begin(
      context: scene.context, animator: "album-flip", interactive: true, session: "listed")
    #expect(started.session == "listed")

    let json = try TransitionctlRun.run(["sessions", "--json"], socket: daemon.socketPath)
    #expect(json.status == 0)
    let sessions = try #require(try json.json()["sessions"] as? [[String: Any]])
    let listed = try #require(sessions.first { $0["session"] as? String == "listed" })
    #expect(listed["animator"] as? String == "album-flip")
    #expect(listed["operation"] as? String == "push")
    #expect(listed["state"] as? String == "interactive")
    #expect(listed["interactive"] as? Bool == true)

    let table = try TransitionctlRun.run(["sessions"], socket: daemon.socketPath)
    #expect(table.status == 0)
    let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("listed ") })
    #expect(row.contains("album-flip"))
    #expect(row.contains("interactive"))
    let quiet = try TransitionctlRun.run(["sessions", "-q"], socket: daemon.socketPath)
    #expect(quiet.stdout == "listed\n")
  }

  @Test("stats --json counts connections and sessions")
  func stats() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    // One finished session, so the counters have something to count.
    let scene = TransitionctlProducts.scenes.appendingPathComponent("default-slide-push.json").path
    let play = try TransitionctlRun.run(
      ["play", scene, "--virtual", "--fps", "10"], socket: daemon.socketPath)
    #expect(play.status == 0)

    let result = try TransitionctlRun.run(["stats", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let stats = try #require(try result.json()["stats"] as? [String: Any])
    #expect((stats["uptime"] as? Double ?? -1) >= 0)
    let connections = try #require(stats["connections"] as? [String: Any])
    // This connection and at least the harness's hello and the play before it.
    #expect((connections["current"] as? Int ?? 0) >= 1)
    #expect((connections["total"] as? Int ?? 0) >= 3)
    let frames = try #require(stats["frames"] as? [String: Any])
    let played = try TransitionctlRecording(play.lines()).frames.count
    #expect((frames["sent"] as? Int ?? 0) >= played)

    let human = try TransitionctlRun.run(["stats"], socket: daemon.socketPath)
    #expect(human.status == 0)
    #expect(human.stdout.hasPrefix("uptime "))
    #expect(human.stdout.contains("\nframes.sent "))
    #expect(human.stdout.contains("\nconnections.total "))
  }
}
