import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Interactive control: `update`, `pause`, `resume`, `reverse`, `seek`, `finish`, `cancel`,
/// `end`, and what happens when the driving client leaves.
@Suite struct DaemonInteractiveTests {
  /// The next frame event, skipping other events.
  private func nextFrame(_ client: DaemonClient) throws -> FrameEvent {
    while true {
      if case .frame(let frame) = try client.event() { return frame }
    }
  }

  @Test func updateMovesTheFramesAndFinishCompletes() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(
      context: DaemonScenes.plainPush(), duration: 0.2, interactive: true
    ).session
    _ = try client.subscribe(session: session, fps: 60)
    #expect(try nextFrame(client).progress == 0)
    let updated = try client.control(session: session, action: .update(progress: 0.4))
    #expect(updated.state == "interactive")
    #expect(updated.progress == 0.4)
    #expect(try nextFrame(client).progress == 0.4)
    let sought = try client.control(session: session, action: .seek(progress: 0.7))
    #expect(sought.progress == 0.7)
    #expect(try nextFrame(client).progress == 0.7)
    let finishing = try client.control(session: session, action: .finish(velocity: nil))
    #expect(finishing.state == "finishing")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    #expect(frames.last?.progress == 1)
    #expect(frames.allSatisfy { $0.progress >= 0.7 })
  }

  @Test func cancelReturnsToTheInitialState() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(
      context: DaemonScenes.plainPush(), duration: 0.2, interactive: true
    ).session
    _ = try client.subscribe(session: session, fps: 60)
    let initial = try nextFrame(client)
    _ = try client.control(session: session, action: .update(progress: 0.5))
    let cancelling = try client.control(session: session, action: .cancel(velocity: -1))
    #expect(cancelling.state == "cancelling")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(!finished)
    #expect(frames.last?.progress == 0)
    // The final frame shows exactly the initial state.
    let final = try #require(frames.last)
    #expect(
      NSDictionary(dictionary: ["l": final.layers]).isEqual(to: ["l": initial.layers]))
    let stats = try client.request(["op": "stats"]).object.object("stats").object("sessions")
    #expect(try stats.int("cancelled") == 1)
  }

  @Test func pauseSeekResumeAndReverseOnARunningSession() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), duration: 1).session
    _ = try client.subscribe(session: session, fps: 100)
    let paused = try client.control(session: session, action: .pause)
    #expect(paused.state == "paused")
    let held = try #require(try client.sessions().first)
    #expect(held.state == "paused")
    #expect(held.progress == paused.progress)
    #expect(try client.control(session: session, action: .seek(progress: 0.3)).progress == 0.3)
    #expect(try client.control(session: session, action: .resume).state == "running")
    let reversed = try client.control(session: session, action: .reverse)
    #expect(reversed.state == "running")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    // Running backwards from about 0.3, it ends at the start: not finished.
    #expect(!finished)
    #expect(frames.last?.progress == 0)
    #expect(frames.contains { $0.progress > 0 && $0.progress <= 0.3 })
  }

  @Test func controlsRefusedInTheWrongState() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let running = try client.begin(context: DaemonScenes.plainPush(), duration: 5).session
    #expect(
      try client.errorCode(["op": "update", "session": .string(running), "progress": 0.5])
        == "invalid_state")
    let interactive = try client.begin(context: DaemonScenes.plainPush(), interactive: true)
      .session
    #expect(
      try client.errorCode(["op": "pause", "session": .string(interactive)]) == "invalid_state")
    #expect(
      try client.errorCode(["op": "update", "session": .string(interactive), "progress": 1.5])
        == "bad_request")
    #expect(
      try client.errorCode(["op": "update", "session": .string(interactive)]) == "bad_request")
    #expect(try client.errorCode(["op": "finish", "session": "nope"]) == "unknown_session")
  }

  @Test func endCancelsAtOnce() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), duration: 30).session
    _ = try client.subscribe(session: session, fps: 30)
    _ = try nextFrame(client)
    try client.end(session: session)
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(!finished)
    #expect(frames.last?.progress == 0)
    #expect(try client.sessions().isEmpty)
  }

  @Test func ownerDisconnectCancelsInteractiveSessions() throws {
    let daemon = try DaemonProcess()
    let owner = try daemon.client()
    let interactive = try owner.begin(
      context: DaemonScenes.plainPush(), duration: 0.2, interactive: true
    ).session
    let plain = try owner.begin(context: DaemonScenes.plainPush(), duration: 0.3).session
    _ = try owner.control(session: plain, action: .pause)
    _ = try owner.control(session: interactive, action: .update(progress: 0.5))
    let watcher = try daemon.client()
    _ = try watcher.subscribe(session: interactive, fps: 60)
    _ = try watcher.subscribe(session: plain, fps: 60)
    owner.close()
    var outcomes: [String: Bool] = [:]
    while outcomes.count < 2 {
      if case .complete(let complete) = try watcher.event() {
        outcomes[complete.session] = complete.finished
      }
    }
    // The interactive session is cancelled; the paused plain one resumes and finishes.
    #expect(outcomes[interactive] == false)
    #expect(outcomes[plain] == true)
  }

  @Test func anotherClientOfTheSameUserMayDrive() throws {
    let daemon = try DaemonProcess()
    let owner = try daemon.client()
    let session = try owner.begin(context: DaemonScenes.plainPush(), interactive: true).session
    let driver = try daemon.client()
    let reply = try driver.control(session: session, action: .update(progress: 0.25))
    #expect(reply.progress == 0.25)
  }
}
