import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// `play --interactive`, `drive` and `watch` against the real daemon.
@Suite("transitionctl drive and watch", .serialized)
struct TransitionctlInteractiveTests {
  static let scene = TransitionctlProducts.scenes.appendingPathComponent("album-flip-push.json")
    .path

  @Test("play --interactive waits for drive; --finish ends it with exit 0")
  func interactivePlayFinished() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let play = try TransitionctlRun(
      ["play", Self.scene, "--interactive", "--session", "drag"], socket: daemon.socketPath)
    try daemon.waitForSessions("the interactive session's subscriber") { sessions in
      sessions.contains { $0.session == "drag" && $0.subscribers >= 1 }
    }

    let update = try TransitionctlRun.run(
      ["drive", "drag", "--progress", "0.4", "--json"], socket: daemon.socketPath)
    #expect(update.status == 0, "\(update.stderr)")
    let state = try update.json()
    #expect(state["session"] as? String == "drag")
    #expect(state["state"] as? String == "interactive")
    #expect(abs((state["progress"] as? Double ?? -1) - 0.4) < 1e-9)

    let human = try TransitionctlRun.run(
      ["drive", "drag", "--progress", "0.5"], socket: daemon.socketPath)
    #expect(human.stdout == "drag: interactive, progress 0.500\n")

    let finish = try TransitionctlRun.run(
      ["drive", "drag", "--finish", "--velocity", "4"], socket: daemon.socketPath)
    #expect(finish.status == 0, "\(finish.stderr)")

    let result = try play.wait()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("session drag"))
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.begin["interactive"] as? Bool == true)
    #expect(recording.complete["finished"] as? Bool == true)
    let frames = recording.frames
    #expect(frames.allSatisfy { $0["session"] as? String == "drag" })
    #expect(frames.last?["progress"] as? Double == 1)
  }

  @Test("a cancelled interactive play exits 3")
  func interactivePlayCancelled() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let play = try TransitionctlRun(
      ["play", Self.scene, "--interactive", "--session", "back"], socket: daemon.socketPath)
    try daemon.waitForSessions("the interactive session's subscriber") { sessions in
      sessions.contains { $0.session == "back" && $0.subscribers >= 1 }
    }
    _ = try TransitionctlRun.run(["drive", "back", "--progress", "0.3"], socket: daemon.socketPath)
    let cancel = try TransitionctlRun.run(["drive", "back", "--cancel"], socket: daemon.socketPath)
    #expect(cancel.status == 0, "\(cancel.stderr)")
    let result = try play.wait()
    #expect(result.status == 3)
    let recording = try TransitionctlRecording(result.lines())
    #expect(recording.complete["finished"] as? Bool == false)
    #expect(recording.frames.last?["progress"] as? Double == 0)
  }

  @Test(
    "drive --drag replays a finger path and lets go: finish ends the session, cancel returns it",
    arguments: ["finish", "cancel"])
  func scriptedDrag(release: String) throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scene = TransitionctlProducts.scenes.appendingPathComponent(
      "zoom-present-matched-dismiss.json"
    ).path
    let play = try TransitionctlRun(
      ["play", scene, "--interactive", "--touch", "220,420", "--session", "finger"],
      socket: daemon.socketPath)
    try daemon.waitForSessions("the interactive session's subscriber") { sessions in
      sessions.contains { $0.session == "finger" && $0.subscribers >= 1 }
    }
    let drive = try TransitionctlRun.run(
      [
        "drive", "finger", "--drag", "220,420:226,510:232,600", "--duration", "0.2", "--rate",
        "120", "--release", release, "--json",
      ], socket: daemon.socketPath)
    #expect(drive.status == 0, "\(drive.stderr)")
    #expect(try drive.json()["state"] as? String != "interactive")

    let result = try play.wait()
    #expect(result.status == (release == "finish" ? 0 : 3), "\(result.stderr)")
    let recording = try TransitionctlRecording(result.lines())
    let progresses = recording.frames.compactMap { $0["progress"] as? Double }
    // The finger dragged the picture down 180 points: the session followed it off its start.
    #expect(progresses.contains { $0 > 0.05 && $0 < 1 }, "\(progresses)")
    #expect(progresses.last == (release == "finish" ? 1 : 0))
  }

  @Test("drive --drag refuses a bad path, rate or release with a usage line and exit 64")
  func scriptedDragBadArguments() throws {
    for (arguments, message) in [
      (["--drag", "1,2"], "--drag needs X0,Y0:X1,Y1"),
      (["--drag", "1,2:3,4", "--rate", "90"], "--rate must be 60 or 120"),
      (["--drag", "1,2:3,4", "--release", "fling"], "--release must be finish, cancel or auto"),
      (["--drag", "1,2:3,4", "--finish"], "exactly one action"),
      (["--progress", "0.5", "--duration", "1"], "--duration goes with --drag"),
    ] {
      let run = try TransitionctlRun.run(["drive", "s1"] + arguments, socket: "/nonexistent.sock")
      #expect(run.status == 64, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
    }
  }

  @Test("drive: pause, resume, reverse, seek answer with the session's state")
  func driveControls() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "default-slide-push").context
    _ = try client.begin(context: context, duration: 60, session: "long")

    let pause = try TransitionctlRun.run(
      ["drive", "long", "--pause", "--json"], socket: daemon.socketPath)
    #expect(pause.status == 0, "\(pause.stderr)")
    #expect(try pause.json()["state"] as? String == "paused")

    let seek = try TransitionctlRun.run(
      ["drive", "long", "--seek", "0.25", "--json"], socket: daemon.socketPath)
    #expect(seek.status == 0, "\(seek.stderr)")
    #expect(abs((try seek.json()["progress"] as? Double ?? -1) - 0.25) < 1e-9)

    let resume = try TransitionctlRun.run(
      ["drive", "long", "--resume", "--json"], socket: daemon.socketPath)
    #expect(resume.status == 0, "\(resume.stderr)")
    #expect(try resume.json()["state"] as? String == "running")

    let reverse = try TransitionctlRun.run(
      ["drive", "long", "--reverse"], socket: daemon.socketPath)
    #expect(reverse.status == 0, "\(reverse.stderr)")
    #expect(reverse.stdout.hasPrefix("long: "))
  }

  @Test("drive on an unknown session exits 1; update on a running one is invalid_state")
  func driveErrors() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let unknown = try TransitionctlRun.run(["drive", "nope", "--pause"], socket: daemon.socketPath)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("transitionctl: unknown_session: "))

    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "default-slide-push").context
    _ = try client.begin(context: context, duration: 60, session: "auto")
    let update = try TransitionctlRun.run(
      ["drive", "auto", "--progress", "0.5"], socket: daemon.socketPath)
    #expect(update.status == 1)
    #expect(update.stderr.hasPrefix("transitionctl: invalid_state: "))
  }

  @Test(
    "watch SESSION prints the begin event, frames and the completion as NDJSON, exit 0 when finished"
  )
  func watchSession() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "zoom-present-present").context
    _ = try client.begin(context: context, interactive: true, session: "watched")

    let watch = try TransitionctlRun(
      ["watch", "watched", "--no-pretty"], socket: daemon.socketPath)
    try daemon.waitForSessions("the watcher's subscription") { sessions in
      sessions.contains { $0.session == "watched" && $0.subscribers >= 1 }
    }
    _ = try client.control(session: "watched", action: .update(progress: 0.6))
    _ = try client.control(session: "watched", action: .finish(velocity: 5))

    let result = try watch.wait()
    #expect(result.status == 0, "\(result.stderr)")
    let events = try result.lines()
    let last = try #require(events.last)
    #expect(last["event"] as? String == "complete")
    #expect(last["session"] as? String == "watched")
    #expect(last["finished"] as? Bool == true)
    // The begin event first (with the container and the stream's clock and rate), then frames.
    let begin = try #require(events.first)
    #expect(begin["event"] as? String == "begin")
    #expect(begin["session"] as? String == "watched")
    #expect(begin["container"] as? [Double] == [390, 844])
    #expect(begin["clock"] as? String == "wall")
    #expect(begin["interactive"] as? Bool == true)
    let frames = events.dropFirst().dropLast()
    #expect(!frames.isEmpty)
    #expect(frames.allSatisfy { $0["event"] as? String == "frame" })
    #expect(frames.last?["progress"] as? Double == 1)
  }

  @Test("watch '*' sees sessions begun after it and stops after --count completions")
  func watchEverySession() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "default-slide-present").context
    // A session the watcher is known to be subscribed to once it lists a subscriber.
    _ = try client.begin(context: context, interactive: true, session: "first")
    let watch = try TransitionctlRun(
      ["watch", "*", "--no-pretty", "--count", "2", "--fps", "30"], socket: daemon.socketPath)
    try daemon.waitForSessions("the watcher's subscription") { sessions in
      sessions.contains { $0.session == "first" && $0.subscribers >= 1 }
    }
    _ = try client.begin(context: context, duration: 0.1, session: "second")
    _ = try client.control(session: "first", action: .cancel(velocity: 10))

    let result = try watch.wait()
    #expect(result.status == 0, "\(result.stderr)")
    let events = try result.lines()
    let completions = events.filter { $0["event"] as? String == "complete" }
    #expect(Set(completions.compactMap { $0["session"] as? String }) == ["first", "second"])
    let begins = events.filter { $0["event"] as? String == "begin" }
    #expect(begins.contains { $0["session"] as? String == "second" })
    let firstOutcome = completions.first { $0["session"] as? String == "first" }
    #expect(firstOutcome?["finished"] as? Bool == false)
  }

  @Test("watch --out writes each session's begin event, frames and complete event to a file")
  func watchOut() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let out = directory.file("watched.ndjson")
    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "default-slide-present").context
    _ = try client.begin(context: context, interactive: true, session: "recorded")
    let watch = try TransitionctlRun(
      ["watch", "recorded", "--no-pretty", "--fps", "30", "--out", out],
      socket: daemon.socketPath)
    try daemon.waitForSessions("the watcher's subscription") { sessions in
      sessions.contains { $0.session == "recorded" && $0.subscribers >= 1 }
    }
    _ = try client.control(session: "recorded", action: .update(progress: 0.5))
    _ = try client.control(session: "recorded", action: .finish(velocity: 5))
    let result = try watch.wait()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
      line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let recording = try TransitionctlRecording(lines)
    #expect(recording.begin["session"] as? String == "recorded")
    #expect(recording.begin["container"] as? [Double] == [390, 844])
    #expect(recording.begin["fps"] as? Double == 30)
    #expect(recording.frames.contains { $0["progress"] as? Double == 0.5 })
    #expect(recording.frames.last?["progress"] as? Double == 1)
    #expect(recording.complete["finished"] as? Bool == true)
  }

  @Test("watch --pretty draws one live line per session")
  func watchPretty() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let context = try TransitionctlScene(named: "album-flip-pop").context
    _ = try client.begin(context: context, interactive: true, session: "shown")
    let watch = try TransitionctlRun(["watch", "shown", "--pretty"], socket: daemon.socketPath)
    try daemon.waitForSessions("the watcher's subscription") { sessions in
      sessions.contains { $0.session == "shown" && $0.subscribers >= 1 }
    }
    // Let the session wait longer than its duration before it is driven: the line shows the
    // position in the transition (progress × duration), not the time since begin.
    let duration = try #require(try client.sessions().first { $0.session == "shown" }).duration
    while let waited = try client.sessions().first(where: { $0.session == "shown" })?.t,
      waited < duration * 2
    {
      usleep(50_000)
    }
    _ = try client.control(session: "shown", action: .finish(velocity: 5))
    let result = try watch.wait()
    #expect(result.status == 0, "\(result.stderr)")
    let screen = result.stdout
    #expect(screen.contains("\u{1B}[2K"))
    #expect(!screen.contains("{\"event\""))
    let lastLine = try #require(screen.components(separatedBy: "\u{1B}[2K").last)
    #expect(lastLine.hasPrefix("shown "))
    #expect(lastLine.contains("album-flip pop"))
    #expect(lastLine.contains("100%"))
    let total = String(format: "%.2f", duration)
    #expect(lastLine.contains("at \(total)/\(total) s"), "\(lastLine)")
    #expect(lastLine.contains("finished"))
    #expect(lastLine.contains("dropped "))
  }

  @Test("watch on an unknown session exits 1")
  func watchUnknownSession() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let result = try TransitionctlRun.run(
      ["watch", "ghost", "--no-pretty"], socket: daemon.socketPath)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("transitionctl: unknown_session: "))
  }

  @Test("watch SESSION exits 5 with one line when the daemon stops: the session is lost")
  func watchDaemonStops() throws {
    let daemon = try TransitionctlDaemon()
    let client = try daemon.client()
    let context = try TransitionctlScene(named: "default-slide-push").context
    _ = try client.begin(context: context, interactive: true, session: "held")
    // Watching '*' rides out a restart instead (TransitionctlRestartTests).
    let watch = try TransitionctlRun(["watch", "held", "--no-pretty"], socket: daemon.socketPath)
    try daemon.waitForSessions("the watcher's subscription") { sessions in
      sessions.contains { $0.session == "held" && $0.subscribers >= 1 }
    }
    // The client stays: closing it would cancel its waiting interactive session at once.
    daemon.stop()
    client.close()
    let result = try watch.wait()
    #expect(result.status == 5)
    #expect(
      result.stderr
        == "transitionctl: transitiond stopped while session held ran: the session is lost\n")
  }
}
