import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// `begin` and `subscribe` with both clocks, fan-out and `*`.
@Suite struct DaemonStreamingTests {
  @Test func beginUsesTheRoutedAnimator() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try client.request(["op": "begin", "context": .object(DaemonScenes.albumPush())])
      .object
    #expect(try reply.string("session") == "s1")
    #expect(try reply.string("animator") == "album-flip")
    #expect(try reply.bool("fallback") == false)
    #expect(try reply.double("duration") == 1.0)
    #expect(try reply.int("layers") > 0)
  }

  @Test func declinedContextFallsBackToDefaultSlide() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try client.begin(context: DaemonScenes.plainPush())
    #expect(reply.animator == "default-slide")
    #expect(reply.fallback)
  }

  @Test func beginHonoursAnimatorDurationAndSessionID() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try client.begin(
      context: DaemonScenes.present(), animator: "crossfade", duration: 0.25, session: "fade-1")
    #expect(reply.session == "fade-1")
    #expect(reply.animator == "crossfade")
    #expect(reply.duration == 0.25)
    let sessions = try client.sessions()
    #expect(sessions.map(\.session) == ["fade-1"])
    #expect(sessions.first?.animator == "crossfade")
    #expect(sessions.first?.operation == "present")
    #expect(
      try client.errorCode([
        "op": "begin", "context": .object(DaemonScenes.present()), "session": "fade-1",
      ])
        == "bad_request")
  }

  @Test func virtualClockStreamsEveryFrameThenComplete() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    // Virtual frames ignore the session's clock: it may wait for interaction meanwhile.
    let session = try client.begin(
      context: DaemonScenes.albumPush(), duration: 0.5, interactive: true
    ).session
    _ = try client.subscribe(session: session, fps: 30, clock: .virtual)
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    // t = k / fps for k = 0 … ⌈0.5 × 30⌉ = 15.
    #expect(frames.map(\.seq) == Array(0...15))
    // Frame numbers carry 7 significant digits (docs/protocol.md, "Numbers in frames").
    for frame in frames {
      #expect(abs(frame.t - min(Double(frame.seq) / 30, 0.5)) < 1e-6)
      #expect(abs(frame.progress - frame.t / 0.5) < 1e-6)
    }
    #expect(frames.last?.progress == 1)
    #expect(frames.first?.layers.isEmpty == false)
  }

  @Test func virtualClockIsPacedByTheReader() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), duration: 3).session
    _ = try client.subscribe(session: session, fps: 240, clock: .virtual)
    // 721 frames at t = k / 240; all arrive although nothing here paces them.
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    #expect(frames.count == 721)
    #expect(frames.last?.t == 3)
  }

  @Test func wallClockStreamsUntilComplete() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    // Waiting for interaction until every subscriber is in place, then running.
    let session = try client.begin(
      context: DaemonScenes.plainPush(), duration: 0.3, interactive: true
    ).session
    _ = try client.subscribe(session: session, fps: 60)
    #expect(try client.control(session: session, action: .resume).state == "running")
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    #expect(frames.first?.seq == 0)
    #expect(frames.first?.progress == 0)
    #expect(frames.map(\.seq) == Array(0..<frames.count))
    #expect(frames.count > 2)
    #expect(
      zip(frames, frames.dropFirst()).allSatisfy { $0.t <= $1.t && $0.progress <= $1.progress })
    #expect(frames.last?.progress == 1)
    #expect(try client.sessions().isEmpty)
  }

  @Test func fanOutSharesOneEncodedFramePerTick() throws {
    let daemon = try DaemonProcess()
    let owner = try daemon.client()
    let session = try owner.begin(
      context: DaemonScenes.albumPush(), duration: 0.4, interactive: true
    ).session
    let first = try daemon.client()
    let second = try daemon.client()
    _ = try first.subscribe(session: session, fps: 50)
    _ = try second.subscribe(session: session, fps: 50)
    _ = try owner.control(session: session, action: .resume)
    let a = try first.framesUntilComplete(session: session)
    let b = try second.framesUntilComplete(session: session)
    #expect(a.finished && b.finished)
    let linesA = Dictionary(uniqueKeysWithValues: a.frames.map { ($0.seq, $0.line) })
    let linesB = Dictionary(uniqueKeysWithValues: b.frames.map { ($0.seq, $0.line) })
    let shared = Set(linesA.keys).intersection(linesB.keys)
    #expect(shared.count >= 2)
    for seq in shared { #expect(linesA[seq] == linesB[seq]) }
    #expect(a.frames.last?.seq == b.frames.last?.seq)
    #expect(a.frames.last?.progress == 1)
  }

  @Test func everySessionSubscriptionFollowsLaterSessions() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    _ = try watcher.subscribe(session: "*", fps: 20, clock: .virtual)
    let app = try daemon.client()
    let one = try app.begin(context: DaemonScenes.plainPush(), duration: 0.2).session
    let two = try app.begin(context: DaemonScenes.present(), animator: "crossfade", duration: 0.2)
      .session
    var begun: [String] = []
    var completed: Set<String> = []
    var frames: [String: [Int]] = [:]
    while completed.count < 2 {
      switch try watcher.event() {
      case .begin(let event): begun.append(event.session)
      case .frame(let frame): frames[frame.session, default: []].append(frame.seq)
      case .complete(let complete):
        #expect(complete.finished)
        completed.insert(complete.session)
      default: break
      }
    }
    #expect(begun == [one, two])
    #expect(frames[one] == Array(0...4))
    #expect(frames[two] == Array(0...4))
  }

  @Test func everySessionSubscriptionAnnouncesRunningSessions() throws {
    let daemon = try DaemonProcess()
    let app = try daemon.client()
    let session = try app.begin(context: DaemonScenes.plainPush(), interactive: true).session
    let watcher = try daemon.client()
    _ = try watcher.subscribe(session: "*", fps: 30)
    guard case .begin(let begin) = try watcher.event() else {
      Issue.record("expected a begin event first")
      return
    }
    #expect(begin.session == session)
    #expect(begin.animator == "default-slide")
    guard case .frame(let frame) = try watcher.event() else {
      Issue.record("expected a frame")
      return
    }
    #expect(frame.session == session)
    #expect(frame.progress == 0)
  }

  @Test func unsubscribeStopsFrames() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), interactive: true).session
    let subscription = try client.subscribe(session: session, fps: 30)
    guard case .begin(let begin) = try client.event() else {
      Issue.record("expected the begin event first")
      return
    }
    #expect(begin.session == session)
    guard case .frame = try client.event() else {
      Issue.record("expected a frame")
      return
    }
    try client.unsubscribe(subscription: subscription)
    #expect(try client.sessions().first?.subscribers == 0)
    #expect(
      try client.errorCode(["op": "unsubscribe", "subscription": .number(Double(subscription))])
        == "unknown_subscription")
  }
}

/// Wall frames leave at their instant, not before: the daemon renders a tick ahead of its
/// deadline and holds it until then (docs/architecture.md, "The frame clock").
@Suite struct DaemonFrameTimingTests {
  /// `CLOCK_MONOTONIC` in seconds: the clock the daemon's `start` is on.
  private func monotonicNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func beginReportsItsStartAndNoWallFrameArrivesBeforeStartPlusT() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let sent = monotonicNow()
    let begun = try client.begin(
      context: DaemonScenes.present(), animator: "crossfade", duration: 0.6)
    let answered = monotonicNow()
    let start = try #require(begun.start)
    #expect(sent <= start && start <= answered)
    _ = try client.subscribe(session: begun.session, fps: 120, clock: .wall)
    var frames = 0
    var early: [String] = []
    reading: while true {
      let event = try client.event()
      let arrival = monotonicNow()
      switch event {
      case .begin(let begin): #expect(begin.start == start)
      case .frame(let frame):
        frames += 1
        // `t` is written to at least 7 significant digits; a timer may round to 1 µs.
        if arrival < start + frame.t - 1e-5 {
          early.append("seq \(frame.seq) came \((start + frame.t - arrival) * 1e3) ms early")
        }
      case .complete: break reading
      default: continue
      }
    }
    #expect(frames > 20)
    #expect(early.isEmpty, "\(early)")
  }
}
